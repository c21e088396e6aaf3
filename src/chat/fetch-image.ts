import type { ImageFetcher } from '../providers/chat/types';
import { GatewayError } from '../errors';

const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const IMAGE_TIMEOUT_MS = 15_000;

/**
 * Fetches an https image for upstreams that only take inline base64 (Gemini). The scrape URL
 * guard also gates these once web context lands; until then only https is accepted.
 */
export const fetchImage: ImageFetcher = async (url) => {
  if (!url.startsWith('https://')) throw new GatewayError('invalid_request', 'Image URLs must be https.', { param: 'messages' });
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(IMAGE_TIMEOUT_MS), headers: { Accept: 'image/*' } });
  } catch {
    throw new GatewayError('invalid_request', `The image at ${url} could not be fetched.`, { param: 'messages' });
  }
  const mimeType = response.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
  if (!response.ok || !mimeType.startsWith('image/')) {
    throw new GatewayError('invalid_request', `The URL ${url} did not return an image (${response.status}).`, { param: 'messages' });
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new GatewayError('invalid_request', `The image at ${url} exceeds 20 MB.`, { param: 'messages' });
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { mimeType, base64: btoa(binary) };
};
