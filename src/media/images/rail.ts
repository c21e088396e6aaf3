import type { ImageTokenUsage } from '../../billing/image-cost';
import { DEFAULT_UPSTREAM_TIMEOUT_MS, sendUpstream } from '../../chat/upstream';
import { GatewayError } from '../../errors';
import { falImages } from '../../providers/fal/images';
import { openaiImageRequest, openaiImages } from '../../providers/openai/images';
import { upstreamError, UpstreamTrouble } from '../../providers/media-http';
import { replicateImages } from '../../providers/replicate/images';
import type { ProviderId } from '../../providers/ids';
import { providerBaseUrl, providerKey } from '../../providers/registry';
import type { ReferenceImage } from '../references';
import type { ImagePlan } from './plan';

export interface MediaUpstreamRequest {
  url: string;
  headers: Record<string, string>;
  body: BodyInit;
}

/** One image as the upstream produced it: exactly these bytes are hosted. */
export interface RenderedImage {
  bytes: Uint8Array;
  contentType: string;
}

/** A finished render: its images, and the usage a token-billed upstream reports. */
export interface ImageRender {
  images: RenderedImage[];
  usage?: ImageTokenUsage;
}

/** An image render takes minutes on the slowest models; the spec's sync route holds the connection. */
const IMAGE_TIMEOUT_MS = 5 * 60 * 1000;

/** Providers whose image rail is built; models served only elsewhere are not offered (README, "Media"). */
export const IMAGE_RAILS: ReadonlySet<ProviderId> = new Set(['openai', 'fal', 'replicate']);

/** Renders the plan's images on its route. Throws `GatewayError` for upstream failures. */
export async function renderImages(plan: ImagePlan, references: ReferenceImage[], env: Env, signal: AbortSignal): Promise<ImageRender> {
  const { provider } = plan.route;
  const apiKey = providerKey(env, provider);
  if (!apiKey || !IMAGE_RAILS.has(provider)) throw new GatewayError('provider_unavailable', `No image rail for ${provider} is configured.`, { retryAfter: 60 });
  const base = providerBaseUrl(env, provider);
  const timeoutMs = Math.max(IMAGE_TIMEOUT_MS, Number(env.UPSTREAM_TIMEOUT_MS) || DEFAULT_UPSTREAM_TIMEOUT_MS);
  const deadline = Date.now() + timeoutMs;
  if (provider === 'openai') return openaiRender(plan, references, base, apiKey, timeoutMs, signal);
  const images = provider === 'fal' ? await falImages(plan, base, apiKey, deadline, signal) : await replicateImages(plan, base, apiKey, deadline, signal);
  return { images: images.slice(0, plan.n) };
}

/** Whether the rail sends the reference bytes itself (OpenAI edits) or their links (fal fetches them). */
export function railReadsReferenceBytes(provider: ProviderId): boolean {
  return provider === 'openai';
}

async function openaiRender(plan: ImagePlan, references: ReferenceImage[], base: string, apiKey: string, timeoutMs: number, signal: AbortSignal): Promise<ImageRender> {
  // Chat's transport (its timeout), the media rails' status table: an answer is classified by
  // `upstreamError`; no answer at all (unreachable, timed out) is transport trouble.
  let answered: GatewayError | undefined;
  const errorMessage = (status: number, body: unknown) => (answered = upstreamError('OpenAI', status, body)).message;
  const outcome = await sendUpstream(openaiImageRequest(plan, references, base, apiKey), { timeoutMs, signal, errorMessage });
  if (!outcome.ok) throw answered ?? new UpstreamTrouble(outcome.error.message);
  let body: unknown;
  try {
    body = await outcome.response.json();
  } catch {
    throw new GatewayError('provider_error', 'The provider answered with an unreadable body.');
  }
  const { images, usage } = openaiImages(body);
  return { images: images.slice(0, plan.n), usage };
}
