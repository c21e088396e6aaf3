import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../../test/workers/refusal';
import { planVideo } from './plan';
import { VideoGenerationRequest } from './request';

const env = { OPENAI_API_KEY: 'sk', FAL_API_KEY: 'fal' } as unknown as Env;
const plan = (body: Record<string, unknown>) => planVideo(VideoGenerationRequest.parse({ prompt: 'a river', ...body }), env);
const refusal = (body: Record<string, unknown>) => refusalOf(() => plan(body));

describe('video plans', () => {
  it("takes the model's default duration and prices the seconds at the resolution's rate", () => {
    expect(plan({ model: 'openai/sora-2' })).toMatchObject({ duration: 4, resolution: '720p', predictedMicros: 400_000 });
    expect(plan({ model: 'openai/sora-2', duration: 12 }).predictedMicros).toBe(1_200_000);
    expect(plan({ model: 'google/veo-3.1', duration: 6, resolution: '4k' }).predictedMicros).toBe(3_600_000);
  });

  it('refuses a duration outside the allowed set with 400 naming duration and the set (D7)', () => {
    expect(refusal({ model: 'openai/sora-2', duration: 5 })).toMatchObject({ code: 'invalid_request', param: 'duration', message: expect.stringContaining('4, 8, 12') });
  });

  it('refuses a resolution the model does not render, and references it does not take', () => {
    expect(refusal({ model: 'openai/sora-2', resolution: '1080p' })).toMatchObject({ param: 'resolution' });
    expect(refusal({ model: 'openai/sora-2', video_url: 'https://example.com/a.mp4' })).toMatchObject({ param: 'video_url' });
  });

  it('takes the first configured route, and answers 404 when none is configured and 400 for a non-video model', () => {
    const replicateOnly = { REPLICATE_API_KEY: 'r8' } as unknown as Env;
    expect(planVideo(VideoGenerationRequest.parse({ model: 'kuaishou/kling-2.1-master', prompt: 'x', duration: 5 }), replicateOnly).route.provider).toBe('replicate');
    expect(refusalOf(() => planVideo(VideoGenerationRequest.parse({ model: 'openai/sora-2', prompt: 'x' }), replicateOnly))).toMatchObject({ code: 'model_not_found' });
    expect(refusal({ model: 'openai/gpt-image-1-mini' })).toMatchObject({ code: 'invalid_request', param: 'model' });
  });

  it.each([
    [{ duration: 61 }, 'duration'],
    [{ prompt: '' }, 'prompt'],
    [{ image_url: 'data:image/png;base64,AAAA' }, 'image_url'],
    [{ video_urls: Array.from({ length: 6 }, (_, i) => `https://example.com/${i}.mp4`) }, 'video_urls'],
  ])('validates %o', (body, param) => {
    const parsed = VideoGenerationRequest.safeParse({ model: 'openai/sora-2', prompt: 'x', ...body });
    expect(parsed.error?.issues[0]?.path[0]).toBe(param);
  });
});
