import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../test/workers/refusal';
import { MODELS } from './models';
import { serves } from '../providers/registry';
import { CAPABILITY_OF, resolveModel, servingRoutes } from './resolve';
import type { SpeechModel } from './types';

const env = { OPENAI_API_KEY: 'sk-test', GROQ_API_KEY: 'gsk-test', FAL_API_KEY: 'fal-test' } as unknown as Env;

describe('resolveModel and servingRoutes: the one model lookup of chat, images, video and speech', () => {
  it.each([
    ['openai/gpt-4o-mini', 'chat'],
    ['openai/gpt-image-1-mini', 'image'],
    ['openai/sora-2', 'video'],
    ['openai/gpt-4o-mini-tts', 'audio'],
  ] as const)('finds %s as a %s model with its serving routes', (slug, type) => {
    const model = resolveModel(slug, type);
    expect(model).toMatchObject({ id: slug, type });
    expect(servingRoutes(model, env)[0]).toMatchObject({ provider: 'openai' });
  });

  it('answers an unknown slug with 404 model_not_found naming model', () => {
    expect(refusalOf(() => resolveModel('nobody/nothing', 'image'))).toMatchObject({ code: 'model_not_found', param: 'model', message: expect.stringContaining('GET /v1/models') });
  });

  it.each([
    ['openai/gpt-image-1-mini', 'chat', 'is an image model, not a chat model'],
    ['openai/gpt-4o-mini', 'video', 'is a chat model, not a video model'],
    ['openai/sora-2', 'audio', 'is a video model, not a speech model'],
    ['openai/gpt-4o-mini-tts', 'image', 'is a speech model, not an image model'],
  ] as const)('refuses %s asked as %s with 400 naming model', (slug, type, message) => {
    expect(refusalOf(() => resolveModel(slug, type))).toMatchObject({ code: 'invalid_request', param: 'model', message: expect.stringContaining(message) });
  });

  it('answers 404 for a model no configured provider serves', () => {
    const model = resolveModel('openai/gpt-4o-mini-tts', 'audio');
    expect(refusalOf(() => servingRoutes(model, {} as Env))).toMatchObject({ code: 'model_not_found', param: 'model' });
  });

  it("never serves a route on a provider without that kind's adapter (no other provider's wire format)", () => {
    const model: SpeechModel = {
      type: 'audio',
      id: 'test/speech-on-groq',
      displayName: 'Speech on Groq',
      maker: 'test',
      released: '2025-01-01',
      defaultVoice: 'alloy',
      routes: [{ provider: 'groq', upstreamId: 'tts', per1kChars: 0.01, source: { url: 'https://example.com', readOn: '2025-01-01' } }],
    };
    expect(refusalOf(() => servingRoutes(model, env))).toMatchObject({ code: 'model_not_found', message: expect.stringContaining('no speech rail for groq') });
  });

  it('serves every route of the catalog: each names a provider with the adapter its model needs', () => {
    const unserved = MODELS.flatMap((model) => model.routes.filter((route) => !serves(route.provider, CAPABILITY_OF[model.type])).map((route) => `${model.id} on ${route.provider}`));
    expect(unserved).toEqual([]);
  });
});
