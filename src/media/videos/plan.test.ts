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

  it.each([
    [{ model: 'openai/sora-2', seed: 7 }, 'seed'],
    [{ model: 'openai/sora-2', aspect_ratio: '1:1' }, 'aspect_ratio'],
    [{ model: 'openai/sora-2', audio: false }, 'audio'],
    [{ model: 'openai/sora-2', image_url: 'https://example.com/a.png', image_urls: ['https://example.com/b.png'] }, 'image_urls'],
    [{ model: 'google/veo-3-fast', end_image_url: 'https://example.com/z.png' }, 'end_image_url'],
    [{ model: 'google/veo-3-fast', aspect_ratio: '4:3' }, 'aspect_ratio'],
    [{ model: 'google/veo-3-fast', audio_url: 'https://example.com/a.mp3' }, 'audio_url'],
    [{ model: 'google/veo-3-fast', video_urls: ['https://example.com/a.mp4'] }, 'video_urls'],
    [{ model: 'kuaishou/kling-2.1-pro', seed: 1 }, 'seed'],
    [{ model: 'minimax/hailuo-02-pro', aspect_ratio: '16:9' }, 'aspect_ratio'],
    // Routed to a text-to-video endpoint only: an image would be ignored there, so it is refused.
    [{ model: 'google/veo-3-fast', image_url: 'https://example.com/a.png' }, 'image_url'],
    [{ model: 'kuaishou/kling-1.6-standard', image_url: 'https://example.com/a.png' }, 'image_url'],
    [{ model: 'kuaishou/kling-2.0-master', image_url: 'https://example.com/a.png' }, 'image_url'],
    [{ model: 'minimax/hailuo-02-pro', image_url: 'https://example.com/a.png' }, 'image_url'],
  ])('refuses %o with 400 naming the input the model does not take', (body, param) => {
    expect(refusal(body)).toMatchObject({ code: 'invalid_request', param });
  });

  it('keeps every input the model takes, and no ratio where it takes none', () => {
    expect(plan({ model: 'openai/sora-2', aspect_ratio: '9:16', image_urls: ['https://example.com/a.png'] })).toMatchObject({ aspectRatio: '9:16', imageUrl: 'https://example.com/a.png' });
    expect(plan({ model: 'google/veo-3-fast', seed: 7, audio: false, duration: 4 })).toMatchObject({ aspectRatio: '16:9', inputs: { seed: true, audioSwitch: true } });
    expect(plan({ model: 'minimax/hailuo-02-pro' }).aspectRatio).toBeUndefined();
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
