import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { PROVIDER_IDS } from '../../src/providers/registry';

const everyProvider = Object.fromEntries(PROVIDER_IDS.map((id) => [`${id.toUpperCase()}_API_KEY`, 'configured']));

interface ModelEntry {
  id: string;
  type: string;
  owned_by: string;
  capabilities: Record<string, unknown>;
  pricing: { input: number; output: number; unit: string; display: string };
  [field: string]: unknown;
}

async function listModels(config: Record<string, string>) {
  const res = await createApp().request('/v1/models', {}, { ...env, ...config });
  expect(res.status).toBe(200);
  return (await res.json()) as { object: string; data: ModelEntry[] };
}

describe('GET /v1/models', () => {
  it('lists 120 or more models from 12 or more makers when every provider is configured', async () => {
    const { object, data } = await listModels(everyProvider);
    expect(object).toBe('list');
    expect(data.length).toBeGreaterThanOrEqual(120);
    expect(new Set(data.map((m) => m.owned_by)).size).toBeGreaterThanOrEqual(12);
    expect(new Set(data.map((m) => m.type))).toEqual(new Set(['chat', 'image', 'video', 'audio', 'embedding', 'transcription']));
  });

  it('lists only the demo model when no provider is configured', async () => {
    expect((await listModels({})).data.map((model) => model.id)).toEqual(['gateway/echo']);
  });

  it('lists only the models of the configured providers', async () => {
    const { data } = await listModels({ ANTHROPIC_API_KEY: 'k' });
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((m) => m.owned_by === 'anthropic')).toBe(true);
  });

  it('prices prompt-cache reads and 5-minute and 1-hour writes per token where the maker does (D31), and omits them where it does not', async () => {
    const { data } = await listModels(everyProvider);
    const pricing = (id: string) => data.find((m) => m.id === id)!.pricing as Record<string, unknown>;
    // Claude Sonnet 4.5: $3 input, 5-minute writes $3.75, 1-hour writes $6, reads $0.30 per million tokens.
    expect(pricing('anthropic/claude-sonnet-4-5')).toMatchObject({ input: 3e-6, cache_read: 3e-7, cache_write: 3.75e-6, cache_write_1h: 6e-6 });
    // OpenAI prices cached input (a read) and no writes.
    expect(pricing('openai/gpt-4o-mini')).toMatchObject({ cache_read: 7.5e-8 });
    expect(pricing('openai/gpt-4o-mini')).not.toHaveProperty('cache_write');
    expect(pricing('openai/gpt-4o-mini')).not.toHaveProperty('cache_write_1h');
    expect(pricing('openai/gpt-image-1-mini')).not.toHaveProperty('cache_read');
  });

  it('sends every field of the spec model entry', async () => {
    const { data } = await listModels(everyProvider);
    for (const model of data) {
      expect(model).toMatchObject({
        id: expect.stringMatching(/^[a-z0-9-]+\/[a-z0-9.-]+$/),
        object: 'model',
        created: expect.any(Number),
        owned_by: expect.any(String),
        display_name: expect.any(String),
        capabilities: {
          streaming: expect.any(Boolean),
          images: expect.any(Boolean),
          vision: expect.any(Boolean),
          tools: expect.any(Boolean),
          image_edit: expect.any(Boolean),
          max_reference_images: expect.any(Number),
        },
        pricing: { input: expect.any(Number), output: expect.any(Number), unit: expect.any(String), display: expect.any(String) },
      });
      expect(model.capabilities.images).toBe(model.capabilities.vision);
      expect(model).toHaveProperty('context_length');
      expect(model).toHaveProperty('max_output_tokens');
    }
  });

  it.each([
    ['chat', 'per_token'],
    ['image', 'per_image'],
    ['video', 'per_second'],
    ['audio', 'per_1k_chars'],
    ['embedding', 'per_token'],
    ['transcription', 'per_second'],
  ])('prices %s models %s', async (type, unit) => {
    const { data } = await listModels(everyProvider);
    const ofType = data.filter((m) => m.type === type);
    expect(ofType.length).toBeGreaterThan(0);
    for (const model of ofType) {
      expect(model.pricing.unit).toBe(unit);
      if (type !== 'chat' && type !== 'embedding') expect(model.pricing.input).toBe(0);
    }
  });

  it("lists the GPT-4o transcribers' token prices, by which they are billed, beside their audio's estimate per second", async () => {
    const { data } = await listModels(everyProvider);
    const transcribe = data.find((m) => m.id === 'openai/gpt-4o-transcribe');
    expect(transcribe?.pricing).toMatchObject({ unit: 'per_second', output: 0.0001, tokens: { text_input: 2.5e-6, audio_input: 6e-6, output: 1e-5 } });
    expect(data.find((m) => m.id === 'openai/whisper-1')?.pricing).not.toHaveProperty('tokens');
  });

  it('lists embedding models priced per input token, with their sizes and input limit', async () => {
    const { data } = await listModels(everyProvider);
    const small = data.find((m) => m.id === 'openai/text-embedding-3-small');
    expect(small).toMatchObject({
      type: 'embedding',
      context_length: 8192,
      pricing: { input: 2e-8, output: 0, unit: 'per_token', display: '$0.02 / 1M input tokens' },
      embedding: { default_dimensions: 1536, min_dimensions: 1, max_dimensions: 1536, max_input_tokens: 8192 },
    });
    expect(data.filter((m) => m.type === 'embedding').map((m) => m.id).sort()).toEqual(
      ['google/gemini-embedding-001', 'intfloat/multilingual-e5-large-instruct', 'mistral/mistral-embed', 'openai/text-embedding-3-large', 'openai/text-embedding-3-small'],
    );
  });

  it('prices GPT-4o-class chat per token, as USD per million divided by a million', async () => {
    const { data } = await listModels(everyProvider);
    const gpt4o = data.find((m) => m.id === 'openai/gpt-4o');
    expect(gpt4o?.pricing).toMatchObject({ input: 2.5e-6, output: 1e-5, unit: 'per_token' });
    expect(gpt4o?.pricing.display).toBe('$2.50 / 1M input tokens, $10.00 / 1M output tokens');
  });

  it('is public: no key needed', async () => {
    const res = await createApp().request('/v1/models', {}, { ...env, OPENAI_API_KEY: 'k' });
    expect(res.status).toBe(200);
  });
});
