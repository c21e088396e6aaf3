import { GatewayError } from '../../errors';
import { readBodyCapped } from '../../http/body';
import type { ImageFetcher } from '../../providers/chat/types';
import { guardedFetch, type GuardOptions } from '../../web/guard';

const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const IMAGE_TIMEOUT_MS = 15_000;

/**
 * Fetches an https image for upstreams that only take inline base64 (Gemini), through the same
 * private-address guard as scraping: a client cannot make the gateway read its internal network.
 * The guard's settings are worked out only when an image is fetched (most requests carry none).
 */
export function imageFetcher(guard: () => GuardOptions): ImageFetcher {
  return async (url) => {
    const refused = (why: string) => new GatewayError('invalid_request', `The image at ${url} ${why}.`, { param: 'messages' });
    if (!url.startsWith('https://')) throw refused('is not an https URL');
    const outcome = await guardedFetch(url, { headers: { Accept: 'image/*' }, timeoutMs: IMAGE_TIMEOUT_MS }, guard());
    if (!outcome.ok) throw refused(`could not be fetched: ${outcome.reason}`);
    const { response } = outcome.result;
    const mimeType = response.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
    if (!response.ok || !mimeType.startsWith('image/')) throw refused(`is not an image (HTTP ${response.status}, ${mimeType || 'no type'})`);
    const read = await readBodyCapped(response, MAX_IMAGE_BYTES, '20 MB');
    if (!read.ok) throw refused(read.reason);
    const { bytes } = read;
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { mimeType, base64: btoa(binary) };
  };
}
