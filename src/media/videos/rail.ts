import { GatewayError } from '../../errors';
import { pollFalVideo, submitFalVideo } from '../../providers/fal/videos';
import { pollOpenAIVideo, submitOpenAIVideo } from '../../providers/openai/videos';
import { pollReplicateVideo, submitReplicateVideo } from '../../providers/replicate/videos';
import type { ProviderId } from '../../providers/ids';
import { providerBaseUrl, providerKey } from '../../providers/registry';
import type { ReferenceImage } from '../references';
import type { VideoPlan } from './plan';

/** Where the upstream keeps a render: its provider, id and the status URLs it returned (fal, Replicate). */
export type VideoHandle = Record<string, string>;

/** What a poll learns: still waiting, rendering, done (with the file to copy), or failed. */
export type VideoProgress =
  | { state: 'queued' }
  | { state: 'processing' }
  | { state: 'completed'; download: () => Promise<Response> }
  | { state: 'failed'; error: string };

function credentials(env: Env, provider: ProviderId): { base: string; apiKey: string } {
  const apiKey = providerKey(env, provider);
  if (!apiKey) throw new GatewayError('provider_unavailable', `${provider} is not configured.`, { retryAfter: 60 });
  return { base: providerBaseUrl(env, provider), apiKey };
}

/** Sends the render upstream; the handle is what later polls need. */
export async function submitVideo(plan: VideoPlan, firstFrame: ReferenceImage | undefined, env: Env): Promise<VideoHandle> {
  const { base, apiKey } = credentials(env, plan.route.provider);
  switch (plan.route.provider) {
    case 'openai':
      return submitOpenAIVideo(plan, firstFrame, base, apiKey);
    case 'replicate':
      return submitReplicateVideo(plan, base, apiKey);
    default:
      return submitFalVideo(plan, base, apiKey);
  }
}

export async function pollVideo(handle: VideoHandle, env: Env): Promise<VideoProgress> {
  const provider = handle.provider as ProviderId;
  const { base, apiKey } = credentials(env, provider);
  switch (provider) {
    case 'openai':
      return pollOpenAIVideo(handle, base, apiKey);
    case 'replicate':
      return pollReplicateVideo(handle, apiKey);
    default:
      return pollFalVideo(handle, apiKey);
  }
}

/** Whether the rail sends the first frame's bytes (OpenAI) rather than its link (fal). */
export function videoRailReadsFrameBytes(provider: ProviderId): boolean {
  return provider === 'openai';
}
