import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../test/workers/refusal';
import type { ProviderConfig } from './adapters';
import { groqChat } from './groq/chat';
import { adapterTarget, PROVIDER_IDS, PROVIDERS, providerBaseUrl, withVersionPrefix } from './registry';

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

describe('the registry is the one list of providers', () => {
  it('has the provider ids as its keys, each once', () => {
    expect(PROVIDER_IDS).toEqual(Object.keys(PROVIDERS));
    expect(new Set(PROVIDER_IDS).size).toBe(PROVIDER_IDS.length);
  });

  it('makes a chat provider name its parameter group, and a provider without chat name none (type errors)', () => {
    const base = { name: 'Example', defaultBaseUrl: 'https://api.example.com/v1', versionPrefix: '/v1' };
    // @ts-expect-error: serves chat without naming its parameter group
    const unnamed: ProviderConfig = { ...base, chat: groqChat };
    // @ts-expect-error: a parameter group on a provider that serves no chat
    const stray: ProviderConfig = { ...base, paramGroup: 1 };
    expect([unnamed.name, stray.name]).toEqual(['Example', 'Example']);
  });
});
