import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../test/workers/refusal';
import { adapterTarget, providerBaseUrl, withVersionPrefix } from './registry';

describe('provider base URLs, with or without the version prefix', () => {
  it.each([
    ['https://api.openai.com/v1', '/v1', 'https://api.openai.com/v1'],
    ['https://api.openai.com', '/v1', 'https://api.openai.com/v1'],
    ['https://api.openai.com/v1/', '/v1', 'https://api.openai.com/v1'],
    ['https://api.groq.com/openai/v1', '/openai/v1', 'https://api.groq.com/openai/v1'],
    ['https://api.groq.com/openai', '/openai/v1', 'https://api.groq.com/openai/v1'],
    ['https://api.groq.com', '/openai/v1', 'https://api.groq.com/openai/v1'],
    ['https://api.fireworks.ai/inference/v1', '/inference/v1', 'https://api.fireworks.ai/inference/v1'],
    ['https://generativelanguage.googleapis.com', '/v1beta', 'https://generativelanguage.googleapis.com/v1beta'],
    ['https://generativelanguage.googleapis.com/v1beta', '/v1beta', 'https://generativelanguage.googleapis.com/v1beta'],
    ['https://api.deepseek.com', '', 'https://api.deepseek.com'],
    ['http://127.0.0.1:4010', '/v1', 'http://127.0.0.1:4010/v1'],
    ['https://proxy.example/team-a', '/v1', 'https://proxy.example/team-a/v1'],
    ['https://proxy.example/v1x', '/v1', 'https://proxy.example/v1x/v1'],
  ])('%s with prefix "%s" is %s', (base, prefix, expected) => {
    expect(withVersionPrefix(base, prefix)).toBe(expected);
  });

  it('uses the public endpoint when the operator set none', () => {
    expect(providerBaseUrl({} as Env, 'openai')).toBe('https://api.openai.com/v1');
    expect(providerBaseUrl({} as Env, 'anthropic')).toBe('https://api.anthropic.com/v1');
    expect(providerBaseUrl({ GROQ_BASE_URL: 'https://api.groq.com' } as Env, 'groq')).toBe('https://api.groq.com/openai/v1');
  });
});

describe('adapterTarget: a provider answers only for what it serves', () => {
  const env = { GROQ_API_KEY: 'gsk-test', FAL_API_KEY: 'fal-test' } as unknown as Env;

  it('gives the adapter and the call target of a configured provider', () => {
    const { adapter, target } = adapterTarget(env, 'fal', 'videos');
    expect(adapter.readsFrameBytes).toBe(false);
    expect(target).toEqual({ base: 'https://queue.fal.run', apiKey: 'fal-test' });
  });

  it('refuses a capability the provider lacks with 400, never another provider\'s adapter', () => {
    expect(refusalOf(() => adapterTarget(env, 'groq', 'images'))).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('Groq serves no images') });
  });

  it('answers 503 for a provider the operator has not turned on', () => {
    expect(refusalOf(() => adapterTarget(env, 'replicate', 'images'))).toMatchObject({ code: 'provider_unavailable' });
  });
});
