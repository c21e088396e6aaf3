import { z } from '@hono/zod-openapi';
import { GatewayError } from '../../errors';
import { defineVideoAdapter, type ProviderTarget } from '../adapters';
import { providerJson, type MediaInit } from '../http';
import type { ReferenceImage, VideoOrder, VideoProgress } from '../renders';

/**
 * OpenAI's Videos API (https://platform.openai.com/docs/api-reference/videos): `POST /videos` as
 * multipart (`model`, `prompt`, `seconds`, `size`, and the first frame as `input_reference`),
 * `GET /videos/{id}` (`queued`, `in_progress`, `completed`, `failed` with `error`), and the file
 * at `GET /videos/{id}/content`.
 */

/** The documented 720p sizes; planVideo refuses every other ratio (`videoInputs`), so none is rendered as another. */
const SIZES: Record<string, string> = { '16:9': '1280x720', '9:16': '720x1280' };

interface OpenAIVideo {
  id?: string;
  status?: string;
  error?: { message?: string } | null;
}

/** A video of the Videos API: its id is all a poll needs. */
const OpenAIHandle = z.object({ provider: z.literal('openai'), id: z.string() });
type OpenAIHandle = z.output<typeof OpenAIHandle>;

/** OpenAI takes the first frame's bytes (`input_reference`), not its link. */
export const openaiVideos = defineVideoAdapter({
  readsFrameBytes: true,
  handle: OpenAIHandle,
  submit,
  poll,
});

async function submit(plan: VideoOrder, firstFrame: ReferenceImage | undefined, { base, apiKey }: ProviderTarget): Promise<OpenAIHandle> {
  const form = new FormData();
  form.append('model', plan.route.upstreamId);
  form.append('prompt', plan.request.prompt);
  form.append('seconds', String(plan.duration));
  const size = SIZES[plan.aspectRatio ?? '16:9'];
  if (!size) throw new GatewayError('invalid_request', `${plan.model.id} renders 16:9 or 9:16 only.`, { param: 'aspect_ratio' });
  form.append('size', size);
  if (firstFrame) form.append('input_reference', new Blob([firstFrame.bytes], { type: firstFrame.contentType }), 'first-frame');
  const video = await call<OpenAIVideo>(`${base}/videos`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: form });
  if (!video.id) throw new GatewayError('provider_error', 'OpenAI answered the video request without an id.');
  return { provider: 'openai' as const, id: video.id };
}

async function poll(handle: OpenAIHandle, { base, apiKey }: ProviderTarget): Promise<VideoProgress> {
  const auth = { Authorization: `Bearer ${apiKey}` };
  const video = await call<OpenAIVideo>(`${base}/videos/${encodeURIComponent(handle.id)}`, { headers: auth });
  switch (video.status) {
    case 'completed':
      return { state: 'completed', download: (signal) => fetch(`${base}/videos/${encodeURIComponent(handle.id)}/content`, { headers: auth, signal }) };
    case 'failed':
      return { state: 'failed', error: video.error?.message ?? 'The render failed.' };
    case 'in_progress':
      return { state: 'processing' };
    default:
      return { state: 'queued' };
  }
}

function call<T>(url: string, init: MediaInit): Promise<T> {
  return providerJson<T>('OpenAI', url, init);
}
