import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../../test/workers/refusal';
import { gptImageSize } from '../../providers/openai/images';
import { planImages } from './plan';
import { ImageGenerationRequest } from './request';

const env = { OPENAI_API_KEY: 'sk-test' } as unknown as Env;
const plan = (body: Record<string, unknown>) => planImages(ImageGenerationRequest.parse({ prompt: 'a red fox', ...body }), env);
const refusal = (body: Record<string, unknown>) => refusalOf(() => plan(body));

describe('image request plans', () => {
  it.each([
    ['1024x1024', '1024x1024'],
    ['512x512', '1024x1024'],
    ['1792x1024', '1536x1024'],
    ['4096x10', '1536x1024'],
    ['1024x1792', '1024x1536'],
    ['1x2', '1024x1536'],
  ])('maps %s to the GPT-image size %s', (size, mapped) => {
    expect(gptImageSize(size)).toBe(mapped);
    expect(plan({ model: 'openai/gpt-image-1-mini', size }).size).toBe(mapped);
  });

  it.each([
    ['standard', 'medium', 11_000],
    ['hd', 'high', 36_000],
    ['low', 'low', 5_000],
    ['medium', 'medium', 11_000],
    ['high', 'high', 36_000],
  ])('renders quality %s as %s at its tier price', (quality, tier, unitMicros) => {
    expect(plan({ model: 'openai/gpt-image-1-mini', quality })).toMatchObject({ quality: tier, unitMicros });
  });

  it('refuses a tier the model does not render, naming quality and the tiers', () => {
    expect(refusal({ model: 'openai/gpt-image-1-mini', quality: 'max' })).toMatchObject({ code: 'invalid_request', param: 'quality', message: expect.stringContaining('low, medium, high') });
  });

  it('refuses references on a model that takes none, before asking who serves it', () => {
    expect(refusal({ model: 'black-forest-labs/flux-1-schnell', image_url: 'https://example.com/a.png' })).toMatchObject({ code: 'invalid_request', param: 'image_url' });
    expect(refusal({ model: 'black-forest-labs/flux-1-schnell', image_urls: ['https://example.com/a.png'] })).toMatchObject({ param: 'image_urls' });
  });

  it('takes references up to the model’s maximum', () => {
    expect(plan({ model: 'openai/gpt-image-1-mini', image_url: 'https://example.com/a.png', image_urls: ['https://example.com/b.png'] }).references).toHaveLength(2);
  });

  it('answers 404 for unknown models and models whose providers are off, 400 for a model of another type', () => {
    expect(refusal({ model: 'nobody/nothing' })).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect(refusal({ model: 'black-forest-labs/flux-1-schnell' })).toMatchObject({ code: 'model_not_found' });
    expect(refusal({ model: 'openai/gpt-4o-mini' })).toMatchObject({ code: 'invalid_request', param: 'model' });
  });

  it.each([
    [{ n: 11 }, 'n'],
    [{ n: 0 }, 'n'],
    [{ size: '4097x10' }, 'size'],
    [{ size: '0x10' }, 'size'],
    [{ size: 'big' }, 'size'],
    [{ prompt: '' }, 'prompt'],
    [{ prompt: 'x'.repeat(20_001) }, 'prompt'],
    [{ image_urls: Array.from({ length: 11 }, (_, i) => `https://example.com/${i}.png`) }, 'image_urls'],
  ])('validates %o (D2 and the spec limits)', (body, param) => {
    const parsed = ImageGenerationRequest.safeParse({ model: 'openai/gpt-image-1-mini', prompt: 'x', ...body });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path[0]).toBe(param);
  });
  it('accepts a 20,000-character prompt (D2)', () => {
    expect(ImageGenerationRequest.safeParse({ model: 'm', prompt: 'x'.repeat(20_000) }).success).toBe(true);
  });
});
