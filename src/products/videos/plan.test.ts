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
    [{ model: 'google/veo-3-fast', image_url: 'https://example.com/a.png', seed: 1 }, 'seed'],
    [{ model: 'kuaishou/kling-1.6-standard', image_url: 'https://example.com/a.png', end_image_url: 'https://example.com/z.png' }, 'end_image_url'],
    [{ model: 'kuaishou/kling-2.0-master', image_url: 'https://example.com/a.png', aspect_ratio: '16:9' }, 'aspect_ratio'],
    [{ model: 'minimax/hailuo-02-pro', end_image_url: 'https://example.com/z.png' }, 'end_image_url'],
    [{ model: 'kuaishou/kling-lipsync', audio_url: 'https://example.com/a.mp3' }, 'video_url'],
    [{ model: 'kuaishou/kling-lipsync', video_url: 'https://example.com/a.mp4' }, 'audio_url'],
    [{ model: 'kuaishou/kling-lipsync', video_url: 'https://example.com/a.mp4', audio_urls: ['https://example.com/a.mp3', 'https://example.com/b.mp3'] }, 'audio_urls'],
    [{ model: 'kuaishou/kling-lipsync', video_url: 'https://example.com/a.mp4', audio_url: 'https://example.com/a.mp3', duration: 10 }, 'duration'],
    [{ model: 'kuaishou/kling-lipsync', video_url: 'https://example.com/a.mp4', audio_url: 'https://example.com/a.mp3', aspect_ratio: '16:9' }, 'aspect_ratio'],
  ])('refuses %o with 400 naming the input the model does not take', (body, param) => {
    expect(refusal(body)).toMatchObject({ code: 'invalid_request', param });
  });

  it('keeps every input the model takes, and no ratio where it takes none', () => {
    expect(plan({ model: 'openai/sora-2', aspect_ratio: '9:16', image_urls: ['https://example.com/a.png'] })).toMatchObject({ aspectRatio: '9:16', imageUrl: 'https://example.com/a.png' });
    expect(plan({ model: 'google/veo-3-fast', seed: 7, audio: false, duration: 4 })).toMatchObject({ aspectRatio: '16:9', inputs: { seed: true, audioSwitch: true } });
    expect(plan({ model: 'minimax/hailuo-02-pro' }).aspectRatio).toBeUndefined();
  });

  it.each([
    ['google/veo-3-fast', { upstreamId: 'fal-ai/veo3/fast/image-to-video', first: { url: 'https://example.com/a.png' } }],
    ['kuaishou/kling-1.6-standard', { upstreamId: 'fal-ai/kling-video/v1.6/standard/image-to-video', first: { url: 'https://example.com/a.png' } }],
    ['kuaishou/kling-2.0-master', { upstreamId: 'fal-ai/kling-video/v2/master/image-to-video', first: { url: 'https://example.com/a.png' } }],
    ['minimax/hailuo-02-pro', { upstreamId: 'fal-ai/minimax/hailuo-02/pro/image-to-video', first: { url: 'https://example.com/a.png' }, omit: ['duration'] }],
  ])('sends a first frame for %s to its image-to-video endpoint', (model, endpoint) => {
    expect(plan({ model, image_url: 'https://example.com/a.png' }).endpoint).toEqual(endpoint);
  });

  it.each([
    ['minimax/hailuo-02-pro', 'end_image_url'],
    ['kuaishou/kling-2.5-turbo-pro', 'tail_image_url'],
    ['bytedance/seedance-1.5-pro', 'end_image_url'],
    ['alibaba/wan-2.2-a14b', 'end_image_url'],
  ])('sends a last frame for %s as %s on its image-to-video endpoint', (model, field) => {
    const { endpoint } = plan({ model, image_url: 'https://example.com/a.png', end_image_url: 'https://example.com/z.png' });
    expect(endpoint).toMatchObject({ upstreamId: expect.stringMatching(/\/image-to-video$/), last: { url: 'https://example.com/z.png', field } });
  });

  it('maps video_url(s) and audio_url(s) to the lip-sync endpoint, without prompt or duration, and holds the 10 s bound', () => {
    const lipsync = plan({ model: 'kuaishou/kling-lipsync', video_urls: ['https://example.com/a.mp4'], audio_url: 'https://example.com/a.mp3' });
    expect(lipsync.endpoint).toEqual({
      upstreamId: 'fal-ai/kling-video/lipsync/audio-to-video',
      video: { url: 'https://example.com/a.mp4', field: 'video_url' },
      audio: { url: 'https://example.com/a.mp3', field: 'audio_url' },
      omit: ['prompt', 'duration'],
    });
    expect(lipsync).toMatchObject({ duration: 10, predictedMicros: 140_000, aspectRatio: undefined });
    expect(lipsync.links).toEqual([
      { param: 'video_urls', urls: ['https://example.com/a.mp4'], kind: 'video' },
      { param: 'audio_url', urls: ['https://example.com/a.mp3'], kind: 'audio' },
    ]);
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
