import { GatewayError } from '../errors';
import type { RenderedImage } from '../media/images/rail';

/**
 * What the queue-style media rails (fal, Replicate) share: a JSON call with the provider's errors
 * mapped onto ours, polling delays, and the download of a finished file.
 */

/** Polls start quickly and slow down: most images finish within seconds, videos within minutes. */
export const FIRST_POLL_MS = 250;
export const MAX_POLL_MS = 2_000;

/**
 * Calls a provider and reads its JSON. A 400 or 422 is the request's fault (a refusal the same
 * request would get again); 429 and unreachable are worth retrying; the rest is the provider's.
 */
export async function providerJson<T>(name: string, url: string, init: RequestInit, detailOf: (body: unknown) => string | undefined): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    throw new GatewayError('provider_unavailable', `${name} could not be reached (${err instanceof Error ? err.message : String(err)}).`, { retryAfter: 5 });
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  if (response.ok) return body as T;
  const detail = detailOf(body) ?? `HTTP ${response.status}`;
  if (response.status === 400 || response.status === 422) throw new GatewayError('invalid_request', `The provider rejected the request: ${detail}`);
  if (response.status === 429) throw new GatewayError('provider_unavailable', `${name} is rate limiting: ${detail}`, { retryAfter: 5 });
  throw new GatewayError('provider_error', `${name} failed (${response.status}): ${detail}`);
}

/** A finished file from the provider's CDN, with its type. */
export async function downloadImage(name: string, url: string, declaredType: string | undefined, signal: AbortSignal): Promise<RenderedImage> {
  const response = await fetch(url, { signal }).catch(() => null);
  if (!response?.ok) throw new GatewayError('provider_error', `${name}'s image ${url} could not be downloaded.`);
  const contentType = (response.headers.get('content-type') ?? declaredType ?? 'image/png').split(';')[0]!.trim();
  return { bytes: new Uint8Array(await response.arrayBuffer()), contentType };
}

/** `url` when it is on `base`'s origin: a provider's answer never sends our key elsewhere. */
export function sameOrigin(url: string | undefined, base: string): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin === new URL(base).origin ? url : undefined;
  } catch {
    return undefined;
  }
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}
