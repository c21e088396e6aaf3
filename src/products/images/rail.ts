import type { ImagePlan, ImageRender, ReferenceImage } from '../../providers/renders';
import { adapterOf, adapterTarget } from '../../providers/registry';
import type { ProviderId } from '../../providers/ids';

/**
 * One image render's time (OpenAI's one call, or a queue rail's submission and polls): gpt-image-1
 * takes 60 s and more at high quality, so 5 minutes by default (`IMAGE_RENDER_TIMEOUT_MS`). At
 * most 6 minutes: under the render's 7-minute claim lease (`RENDER_CLAIM_LEASE_MS`), so a live
 * render is never taken over, and well within the queue consumer's 15 minutes of wall time.
 */
export const IMAGE_RENDER_TIMEOUT_MS = 5 * 60 * 1000;
const MAX_IMAGE_RENDER_TIMEOUT_MS = 6 * 60 * 1000;

export function imageRenderTimeoutMs(env: Env): number {
  const configured = Number(env.IMAGE_RENDER_TIMEOUT_MS);
  return Number.isFinite(configured) && configured > 0 ? Math.min(configured, MAX_IMAGE_RENDER_TIMEOUT_MS) : IMAGE_RENDER_TIMEOUT_MS;
}

/** Renders the plan's images on its route's image adapter. Throws `GatewayError` for upstream failures. */
export async function renderImages(plan: ImagePlan, references: ReferenceImage[], env: Env, signal: AbortSignal): Promise<ImageRender> {
  const { adapter, target } = adapterTarget(env, plan.route.provider, 'images');
  const timeoutMs = imageRenderTimeoutMs(env);
  const { images, usage } = await adapter.render(plan, references, { ...target, deadline: Date.now() + timeoutMs, timeoutMs, signal });
  return { images: images.slice(0, plan.n), ...(usage ? { usage } : {}) };
}

/** Whether the rail sends the reference bytes itself (OpenAI edits) or their links (fal fetches them). */
export function railReadsReferenceBytes(provider: ProviderId): boolean {
  return adapterOf(provider, 'images')?.readsReferenceBytes ?? false;
}
