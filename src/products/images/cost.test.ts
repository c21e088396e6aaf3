import { describe, expect, it } from 'vitest';
import { imageTokenCostMicros, withImageFee } from '../../billing/image-cost';
import { imageChargeMicros, imageHoldMicros } from './cost';
import { planImages } from './plan';
import { ImageGenerationRequest } from './request';

const env = { OPENAI_API_KEY: 'sk-test', FAL_API_KEY: 'fal-test' } as unknown as Env;
const plan = (body: Record<string, unknown>) => planImages(ImageGenerationRequest.parse({ prompt: 'a red fox', ...body }), env);
const MINI = { textInputPerMTok: 2, imageInputPerMTok: 2.5, imageOutputPerMTok: 8 };

describe('token-billed image cost', () => {
  it.each([
    // 1,056 output tokens at $8/1M = 8,448 µ$; + 5 % = 8,870.4
    [{ textInputTokens: 0, imageInputTokens: 0, outputTokens: 1_056 }, 8_870],
    // 5 text + 12,480 output = 99,850 µ$; + 5 % = 104,842.5, rounded half up once
    [{ textInputTokens: 5, imageInputTokens: 0, outputTokens: 12_480 }, 104_843],
    // 520 image tokens at $2.50/1M = 1,300 µ$ beside 8 + 2,176; + 5 % = 3,658.2
    [{ textInputTokens: 4, imageInputTokens: 520, outputTokens: 272 }, 3_658],
    [{ textInputTokens: 0, imageInputTokens: 0, outputTokens: 0 }, 0],
  ])('charges %o as %i micro-dollars: the reported tokens plus the 5 %% fee (D16)', (usage, micros) => {
    expect(imageTokenCostMicros(usage, MINI)).toBe(micros);
  });

  it('adds the fee to a whole amount, rounded half up', () => {
    expect(withImageFee(10)).toBe(11); // 10.5
    expect(withImageFee(100)).toBe(105);
    expect(withImageFee(0)).toBe(0);
  });
});

describe('image holds and charges', () => {
  it('holds a per-image model at n times its price and charges the images returned', () => {
    const flux = plan({ model: 'black-forest-labs/flux-1-dev', n: 3 });
    expect(flux.route.tokens).toBeUndefined();
    expect(imageHoldMicros(flux)).toBe(3 * flux.unitMicros);
    expect(imageChargeMicros(flux, 2, { textInputTokens: 9, imageInputTokens: 9, outputTokens: 9 })).toBe(2 * flux.unitMicros);
  });

  it('holds a token-billed model at the published price of its size, its inputs and the fee', () => {
    // low square: $0.005 + the prompt's 9 bytes held as 9 tokens (D33) at $2/1M = 5,018 µ$ per image
    expect(imageHoldMicros(plan({ model: 'openai/gpt-image-1-mini', quality: 'low', n: 2 }))).toBe(withImageFee(2 * 5_018));
    // landscape costs 1.5 times the square: 7,500 + 18
    expect(imageHoldMicros(plan({ model: 'openai/gpt-image-1-mini', quality: 'low', size: '1792x1024' }))).toBe(withImageFee(7_518));
    // each reference is held as 6,240 image tokens at $2.50/1M = 15,600 µ$
    expect(imageHoldMicros(plan({ model: 'openai/gpt-image-1-mini', quality: 'low', image_urls: ['https://a.test/1.png', 'https://a.test/2.png'] }))).toBe(
      withImageFee(5_018 + 2 * 15_600),
    );
  });

  it('holds more than the charge of the largest render the model can return', () => {
    const largest = plan({ model: 'openai/gpt-image-1.5', quality: 'high', size: '1024x1792', n: 10, image_urls: Array.from({ length: 10 }, (_, i) => `https://a.test/${i}.png`) });
    // OpenAI's published count for a high-quality portrait image, and references far above their usual count.
    const usage = { textInputTokens: 3, imageInputTokens: 10 * 6_000, outputTokens: 10 * 6_208 };
    expect(imageHoldMicros(largest)).toBeGreaterThanOrEqual(imageChargeMicros(largest, 10, usage));
  });

  it('charges a token-billed render the reported usage, or the published price plus the fee when none is reported', () => {
    const mini = plan({ model: 'openai/gpt-image-1-mini', quality: 'high', size: '1024x1536', n: 2 });
    expect(imageChargeMicros(mini, 2, { textInputTokens: 5, imageInputTokens: 0, outputTokens: 12_480 })).toBe(104_843);
    expect(imageChargeMicros(mini, 2, undefined)).toBe(withImageFee(2 * 54_000));
  });
});
