import { z } from '@hono/zod-openapi';
import { GatewayError } from '../../errors';
import { defineVideoAdapter, type ProviderTarget } from '../adapters';
import { providerJson, type MediaInit } from '../http';
import type { ReferenceImage, VideoOrder, VideoProgress } from '../renders';
import { sameOrigin } from '../polling';

/**
 * Video on Replicate's predictions API (https://replicate.com/docs/reference/http): create with
 * `{input: {prompt, duration, aspect_ratio, start_image}}` (the Kling models' names), poll
 * `urls.get`; `starting` is queued, `processing` renders, `succeeded` names the file in `output`.
 */

interface Prediction {
  id?: string;
  status?: string;
  output?: unknown;
  error?: unknown;
  urls?: { get?: string };
}

/** A prediction: its id and the `urls.get` Replicate returned. */
const ReplicateHandle = z.object({ provider: z.literal('replicate'), id: z.string(), getUrl: z.string() });
type ReplicateHandle = z.output<typeof ReplicateHandle>;

/** The provider fetches the images from their links itself. */
export const replicateVideos = defineVideoAdapter({ readsFrameBytes: false, handle: ReplicateHandle, submit, poll });

async function submit(plan: VideoOrder, _firstFrame: ReferenceImage | undefined, { base, apiKey }: ProviderTarget): Promise<ReplicateHandle> {
  const omit = new Set(plan.endpoint.omit ?? []);
  const input = {
    ...(omit.has('prompt') ? {} : { prompt: plan.request.prompt }),
    ...(omit.has('duration') ? {} : { duration: plan.duration }),
    ...(plan.aspectRatio ? { aspect_ratio: plan.aspectRatio } : {}),
    ...(plan.endpoint.first ? { [plan.endpoint.first.field ?? 'start_image']: plan.endpoint.first.url } : {}),
    ...(plan.endpoint.last ? { [plan.endpoint.last.field]: plan.endpoint.last.url } : {}),
    ...(plan.endpoint.video ? { [plan.endpoint.video.field]: plan.endpoint.video.url } : {}),
    ...(plan.endpoint.audio ? { [plan.endpoint.audio.field]: plan.endpoint.audio.url } : {}),
    ...(plan.inputs.seed && plan.request.seed !== undefined ? { seed: plan.request.seed } : {}),
  };
  const prediction = await call(`${base}/models/${plan.endpoint.upstreamId}/predictions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ input }),
  });
  if (!prediction.id) throw new GatewayError('provider_error', 'Replicate answered without a prediction id.');
  return { provider: 'replicate' as const, id: prediction.id, getUrl: sameOrigin(prediction.urls?.get, base) ?? `${base}/predictions/${prediction.id}` };
}

async function poll(handle: ReplicateHandle, { apiKey }: ProviderTarget): Promise<VideoProgress> {
  const prediction = await call(handle.getUrl, { headers: { Authorization: `Bearer ${apiKey}` } });
  switch (prediction.status) {
    case 'succeeded': {
      const url = Array.isArray(prediction.output) ? prediction.output[0] : prediction.output;
      if (typeof url !== 'string') return { state: 'failed', error: 'Replicate answered without a video.' };
      return { state: 'completed', download: (signal) => fetch(url, { signal }) };
    }
    case 'failed':
      return { state: 'failed', error: typeof prediction.error === 'string' ? prediction.error : 'The render failed.' };
    case 'canceled':
      return { state: 'failed', error: 'Replicate canceled the render.' };
    case 'processing':
      return { state: 'processing' };
    default:
      return { state: 'queued' };
  }
}

function call(url: string, init: MediaInit): Promise<Prediction> {
  return providerJson<Prediction>('Replicate', url, init);
}
