import { z } from '@hono/zod-openapi';
import { GatewayError } from '../../errors';
import { defineVideoAdapter, type ProviderTarget } from '../adapters';
import { providerJson, type MediaInit } from '../http';
import type { ReferenceImage, VideoOrder, VideoProgress } from '../renders';
import { sameOrigin } from '../polling';
import { isTransient } from '../upstream-errors';

/**
 * Video on fal's queue (https://docs.fal.ai/model-endpoints/queue): the same submit, status and
 * result calls as images; the result names `video.url`. Veo models take `duration` as `"8s"`,
 * the others as `"5"`. The request goes to the endpoint planVideo picked from the catalog (the
 * image-to-video, first-last-frame or reference-to-video endpoint when it carries images), with
 * the images, video and audio inputs under that endpoint's names (`image_url` by default), which
 * fal fetches itself. Only the fields the model's schema has are sent (`videoInputs`:
 * `resolution`, `aspect_ratio`, `generate_audio`, `seed`; no `prompt` or `duration` where the
 * endpoint has none, `VideoSend.omit`).
 */

interface Submitted {
  request_id?: string;
  status_url?: string;
  response_url?: string;
}

/** A render on fal's queue: its request id and the status and result URLs fal returned. */
const FalHandle = z.object({ provider: z.literal('fal'), id: z.string(), statusUrl: z.string(), responseUrl: z.string() });
type FalHandle = z.output<typeof FalHandle>;

/** The provider fetches the images from their links itself. */
export const falVideos = defineVideoAdapter({ readsFrameBytes: false, handle: FalHandle, submit, poll });

async function submit(plan: VideoOrder, _firstFrame: ReferenceImage | undefined, { base, apiKey }: ProviderTarget): Promise<FalHandle> {
  const { inputs, endpoint } = plan;
  const modelId = endpoint.upstreamId;
  const omit = new Set(endpoint.omit ?? []);
  const input = {
    ...(omit.has('prompt') ? {} : { prompt: plan.request.prompt }),
    ...(omit.has('duration') ? {} : { duration: modelId.includes('veo') ? `${plan.duration}s` : String(plan.duration) }),
    ...(inputs.resolution ? { resolution: plan.resolution } : {}),
    ...(plan.aspectRatio ? { aspect_ratio: plan.aspectRatio } : {}),
    ...(inputs.audioSwitch && plan.request.audio !== undefined ? { generate_audio: plan.request.audio } : {}),
    ...(endpoint.first ? { [endpoint.first.field ?? 'image_url']: endpoint.first.url } : {}),
    ...(endpoint.last ? { [endpoint.last.field]: endpoint.last.url } : {}),
    ...(endpoint.references ? { [endpoint.references.field]: endpoint.references.urls } : {}),
    ...(endpoint.video ? { [endpoint.video.field]: endpoint.video.url } : {}),
    ...(endpoint.audio ? { [endpoint.audio.field]: endpoint.audio.url } : {}),
    ...(inputs.seed && plan.request.seed !== undefined ? { seed: plan.request.seed } : {}),
  };
  const submitted = await call<Submitted>(`${base}/${modelId}`, { method: 'POST', headers: { Authorization: `Key ${apiKey}`, 'Content-Type': 'application/json' }, body: JSON.stringify(input) });
  if (!submitted.request_id) throw new GatewayError('provider_error', 'fal answered the submission without a request id.');
  const appUrl = `${base}/${modelId.split('/').slice(0, 2).join('/')}/requests/${submitted.request_id}`;
  return {
    provider: 'fal' as const,
    id: submitted.request_id,
    statusUrl: sameOrigin(submitted.status_url, base) ?? `${appUrl}/status`,
    responseUrl: sameOrigin(submitted.response_url, base) ?? appUrl,
  };
}

async function poll(handle: FalHandle, { apiKey }: ProviderTarget): Promise<VideoProgress> {
  const auth = { Authorization: `Key ${apiKey}` };
  const status = await call<{ status?: string; error?: string }>(handle.statusUrl, { headers: auth });
  if (status.status === 'IN_QUEUE') return { state: 'queued' };
  if (status.status !== 'COMPLETED') return { state: 'processing' };
  if (status.error) return { state: 'failed', error: status.error };
  let result: { video?: { url?: string; duration?: unknown } };
  try {
    result = await call(handle.responseUrl, { headers: auth });
  } catch (err) {
    if (err instanceof GatewayError && !isTransient(err)) return { state: 'failed', error: err.message };
    throw err;
  }
  const url = result.video?.url;
  if (!url) return { state: 'failed', error: 'fal answered without a video.' };
  // fal's video File carries `duration` (seconds) on endpoints that report it; lip-sync's documented File does not.
  const seconds = typeof result.video?.duration === 'number' && result.video.duration > 0 ? result.video.duration : undefined;
  return { state: 'completed', download: (signal) => fetch(url, { signal }), ...(seconds !== undefined ? { seconds } : {}) };
}

function call<T>(url: string, init: MediaInit): Promise<T> {
  return providerJson<T>('fal', url, init);
}
