import { DEFAULT_UPSTREAM_TIMEOUT_MS } from '../../providers/http';
import type { ImagePlan, ImageRender, ReferenceImage } from '../../providers/renders';
import { adapterOf, adapterTarget } from '../../providers/registry';
import type { ProviderId } from '../../providers/ids';

/** An image render takes minutes on the slowest models; the spec's sync route holds the connection. */
const IMAGE_TIMEOUT_MS = 5 * 60 * 1000;

/** Renders the plan's images on its route's image adapter. Throws `GatewayError` for upstream failures. */
export async function renderImages(plan: ImagePlan, references: ReferenceImage[], env: Env, signal: AbortSignal): Promise<ImageRender> {
  const { adapter, target } = adapterTarget(env, plan.route.provider, 'images');
  const timeoutMs = Math.max(IMAGE_TIMEOUT_MS, Number(env.UPSTREAM_TIMEOUT_MS) || DEFAULT_UPSTREAM_TIMEOUT_MS);
  const { images, usage } = await adapter.render(plan, references, { ...target, deadline: Date.now() + timeoutMs, timeoutMs, signal });
  return { images: images.slice(0, plan.n), ...(usage ? { usage } : {}) };
}

/** Whether the rail sends the reference bytes itself (OpenAI edits) or their links (fal fetches them). */
export function railReadsReferenceBytes(provider: ProviderId): boolean {
  return adapterOf(provider, 'images')?.readsReferenceBytes ?? false;
}
