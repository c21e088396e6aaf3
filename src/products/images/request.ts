import { z } from '@hono/zod-openapi';

/** Each side of `size`: 1 to 4096 pixels (spec "Limits"). */
export const MAX_IMAGE_SIDE = 4096;

const ImageSize = z
  .string()
  .regex(/^\d{1,4}x\d{1,4}$/, 'a size WIDTHxHEIGHT, e.g. 1024x1024')
  .refine((size) => size.split('x').every((side) => Number(side) >= 1 && Number(side) <= MAX_IMAGE_SIDE), `each side is 1 to ${MAX_IMAGE_SIDE} pixels`);

const ReferenceUrl = z
  .string()
  .max(2048)
  .refine((value) => /^https?:\/\//i.test(value), 'must be an absolute http(s) URL (an upload’s public_url works)');

/** `POST /v1/images/generations` and `POST /v1/images/jobs` (spec; D2 for the prompt). */
export const ImageGenerationRequest = z
  .object({
    model: z.string().min(1).openapi({ example: 'openai/gpt-image-1-mini' }),
    prompt: z.string().min(1).max(20_000),
    n: z.int().min(1).max(10).default(1),
    size: ImageSize.default('1024x1024'),
    quality: z.enum(['standard', 'hd', 'low', 'medium', 'high', 'xhigh', 'max']).default('standard'),
    response_format: z.enum(['url', 'b64_json']).default('url').openapi({ description: 'Accepted for compatibility; the answer is always hosted URLs.' }),
    image_url: ReferenceUrl.optional(),
    image_urls: z.array(ReferenceUrl).max(10).optional(),
  })
  .openapi('ImageGenerationRequest');

export type ImageRequest = z.output<typeof ImageGenerationRequest>;

/** The media URL response (spec): hosted links, never inline bytes. */
export const MediaUrlResponse = z
  .object({ created: z.int(), data: z.array(z.object({ url: z.url() })) })
  .openapi('MediaUrlResponse');
