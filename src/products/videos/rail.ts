import { GatewayError } from '../../errors';
import type { ProviderId } from '../../providers/ids';
import type { ReferenceImage, StoredVideoHandle, VideoOrder, VideoProgress } from '../../providers/renders';
import { adapterOf, adapterTarget, isProviderId } from '../../providers/registry';

/** Sends the render to its route's video adapter; the handle is what later polls need (stored with the job). */
export async function submitVideo(order: VideoOrder, firstFrame: ReferenceImage | undefined, env: Env): Promise<StoredVideoHandle> {
  const { adapter, target } = adapterTarget(env, order.route.provider, 'videos');
  return adapter.submit(order, firstFrame, target);
}

/**
 * One poll of a stored handle, by the adapter of the provider it names (which reads its own
 * fields back). A handle naming no provider is a `provider_error`: the job fails, it is never
 * polled on another provider's API.
 */
export async function pollVideo(stored: StoredVideoHandle, env: Env): Promise<VideoProgress> {
  if (!isProviderId(stored.provider)) throw new GatewayError('provider_error', `The job's upstream handle names no provider of this gateway.`);
  const { adapter, target } = adapterTarget(env, stored.provider, 'videos');
  return adapter.poll(stored, target);
}

/** Whether the rail sends the first frame's bytes (OpenAI) rather than its link (fal). */
export function videoRailReadsFrameBytes(provider: ProviderId): boolean {
  return adapterOf(provider, 'videos')?.readsFrameBytes ?? false;
}
