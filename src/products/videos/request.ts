import { z } from '@hono/zod-openapi';

const MediaUrl = z
  .string()
  .max(2048)
  .refine((value) => /^https?:\/\//i.test(value), 'must be an absolute http(s) URL, not a data URI (an upload’s public_url works)');

/** `POST /v1/videos/generations` (spec). */
export const VideoGenerationRequest = z
  .object({
    model: z.string().min(1).openapi({ example: 'openai/sora-2' }),
    prompt: z.string().min(1).max(20_000),
    duration: z.int().min(1).max(60).optional().openapi({ description: "Seconds; the model's allowed set is in GET /v1/models (D7)." }),
    resolution: z.enum(['480p', '720p', '1080p', '2k', '4k']).optional(),
    aspect_ratio: z.enum(['16:9', '4:3', '1:1', '3:4', '9:16', '21:9']).optional(),
    audio: z.boolean().optional(),
    image_url: MediaUrl.optional(),
    image_urls: z.array(MediaUrl).max(10).optional(),
    end_image_url: MediaUrl.optional(),
    seed: z.int().optional(),
    video_url: MediaUrl.optional(),
    video_urls: z.array(MediaUrl).max(5).optional(),
    audio_url: MediaUrl.optional(),
    audio_urls: z.array(MediaUrl).max(5).optional(),
  })
  .openapi('VideoGenerationRequest');

export type VideoRequest = z.output<typeof VideoGenerationRequest>;
