import { GatewayError } from '../../errors';
import type { VideoHandle, VideoProgress } from '../../media/videos/rail';
import type { VideoPlan } from '../../media/videos/plan';
import { isTransient, providerJson, sameOrigin } from '../media-http';

/**
 * Video on fal's queue (https://docs.fal.ai/model-endpoints/queue): the same submit, status and
 * result calls as images; the result names `video.url`. Veo models take `duration` as `"8s"`,
 * the others as `"5"`. The request goes to the endpoint planVideo picked from the catalog (the
 * image-to-video, first-last-frame or reference-to-video endpoint when it carries images), with
 * the images under that endpoint's names (`image_url` by default), which fal fetches itself. Only
 * the fields the model's schema has are sent (`videoInputs`: `resolution`, `aspect_ratio`,
 * `generate_audio`, `seed`).
 */

interface Submitted {
  request_id?: string;
  status_url?: string;
  response_url?: string;
}

export async function submitFalVideo(plan: VideoPlan, base: string, apiKey: string): Promise<VideoHandle> {
  const { inputs, endpoint } = plan;
  const modelId = endpoint.upstreamId;
  const input = {
    prompt: plan.request.prompt,
    duration: modelId.includes('veo') ? `${plan.duration}s` : String(plan.duration),
    ...(inputs.resolution ? { resolution: plan.resolution } : {}),
    ...(plan.aspectRatio ? { aspect_ratio: plan.aspectRatio } : {}),
    ...(inputs.audioSwitch && plan.request.audio !== undefined ? { generate_audio: plan.request.audio } : {}),
    ...(endpoint.first ? { [endpoint.first.field ?? 'image_url']: endpoint.first.url } : {}),
    ...(endpoint.last ? { [endpoint.last.field]: endpoint.last.url } : {}),
    ...(endpoint.references ? { [endpoint.references.field]: endpoint.references.urls } : {}),
    ...(inputs.seed && plan.request.seed !== undefined ? { seed: plan.request.seed } : {}),
  };
  const submitted = await call<Submitted>(`${base}/${modelId}`, { method: 'POST', headers: { Authorization: `Key ${apiKey}`, 'Content-Type': 'application/json' }, body: JSON.stringify(input) });
  if (!submitted.request_id) throw new GatewayError('provider_error', 'fal answered the submission without a request id.');
  const appUrl = `${base}/${modelId.split('/').slice(0, 2).join('/')}/requests/${submitted.request_id}`;
  return {
    provider: 'fal',
    id: submitted.request_id,
    statusUrl: sameOrigin(submitted.status_url, base) ?? `${appUrl}/status`,
    responseUrl: sameOrigin(submitted.response_url, base) ?? appUrl,
  };
}

export async function pollFalVideo(handle: VideoHandle, apiKey: string): Promise<VideoProgress> {
  const auth = { Authorization: `Key ${apiKey}` };
  const status = await call<{ status?: string; error?: string }>(handle.statusUrl!, { headers: auth });
  if (status.status === 'IN_QUEUE') return { state: 'queued' };
  if (status.status !== 'COMPLETED') return { state: 'processing' };
  if (status.error) return { state: 'failed', error: status.error };
  let result: { video?: { url?: string } };
  try {
    result = await call(handle.responseUrl!, { headers: auth });
  } catch (err) {
    if (err instanceof GatewayError && !isTransient(err)) return { state: 'failed', error: err.message };
    throw err;
  }
  const url = result.video?.url;
  if (!url) return { state: 'failed', error: 'fal answered without a video.' };
  return { state: 'completed', download: () => fetch(url) };
}

function call<T>(url: string, init: RequestInit): Promise<T> {
  return providerJson<T>('fal', url, init);
}
