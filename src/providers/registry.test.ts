import { describe, expect, it } from 'vitest';
import { providerBaseUrl, withVersionPrefix } from './registry';

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
