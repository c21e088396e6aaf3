import { GatewayError } from '../errors';
import type { RenderedImage } from './renders';
import { isTransient } from './upstream-errors';

/**
 * What the queue-style media rails (fal, Replicate) share after a submission: polling the status
 * URL at a slowing pace, reading a result again after transport trouble (never submitting
 * again), and the download of a finished file from the provider's CDN.
 */

/** Polls start quickly and slow down: most images finish within seconds, videos within minutes. */
export const FIRST_POLL_MS = 250;
export const MAX_POLL_MS = 2_000;

/**
 * Polls `call` (a status read) until `done` says the answer is final, slowing from
 * `FIRST_POLL_MS` to `MAX_POLL_MS`; transport trouble is polled through (the same URL again),
 * until `deadline`. The request is never submitted again here.
 */
export async function pollUntil<T>(name: string, call: () => Promise<T>, done: (answer: T) => boolean, deadline: number, signal: AbortSignal): Promise<T> {
  for (let wait = FIRST_POLL_MS; ; wait = Math.min(MAX_POLL_MS, wait * 2)) {
    if (Date.now() > deadline) throw new GatewayError('provider_error', `${name} did not finish the render in time.`);
    await sleep(wait, signal);
    const answer = await retryTransient(call, deadline);
    if (answer !== undefined && done(answer)) return answer;
  }
}

/** `call`, asked again after transport trouble until `deadline`; undefined if it was trouble this time. */
async function retryTransient<T>(call: () => Promise<T>, deadline: number): Promise<T | undefined> {
  try {
    return await call();
  } catch (err) {
    if (isTransient(err) && Date.now() < deadline) return undefined;
    throw err;
  }
}

/** `call` (a read of a finished result), asked again after transport trouble until `deadline`. */
export async function readWithRetry<T>(call: () => Promise<T>, deadline: number, signal: AbortSignal): Promise<T> {
  for (let wait = FIRST_POLL_MS; ; wait = Math.min(MAX_POLL_MS, wait * 2)) {
    const answer = await retryTransient(call, deadline);
    if (answer !== undefined) return answer;
    await sleep(wait, signal);
  }
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
