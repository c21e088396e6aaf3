import { GatewayError } from '../errors';
import { readBodyCapped } from '../http/body';
import type { ReferenceImage } from '../providers/renders';
import { guardedFetch, type GuardOptions } from '../web/guard';
import { hostedKey } from './keys';

const MAX_REFERENCE_BYTES = 20 * 1024 * 1024;
const REFERENCE_TIMEOUT_MS = 15_000;

/**
 * Reads reference images: a link to one of our own hosted files (an output or an upload) straight
 * from R2, any other https URL through the private-address guard, as a scrape would.
 */
export async function loadReferences(urls: string[], ownBase: string, bucket: R2Bucket, guard: GuardOptions, param: string): Promise<ReferenceImage[]> {
  return Promise.all(urls.map((url) => loadReference(url, ownBase, bucket, guard, param)));
}

async function loadReference(url: string, ownBase: string, bucket: R2Bucket, guard: GuardOptions, param: string): Promise<ReferenceImage> {
  const refused = (why: string) => new GatewayError('invalid_request', `The reference image ${url} ${why}.`, { param });
  const own = `${ownBase}/files/`;
  if (url.startsWith(own)) {
    const key = hostedKey(url.slice(own.length));
    const object = key !== null ? await bucket.get(key) : null;
    if (!object) throw refused('is not hosted here (it may have expired)');
    return checked(new Uint8Array(await object.arrayBuffer()), object.httpMetadata?.contentType ?? '', refused);
  }
  if (!url.startsWith('https://')) throw refused('is not an https URL');
  const outcome = await guardedFetch(url, { headers: { Accept: 'image/*' }, timeoutMs: REFERENCE_TIMEOUT_MS }, guard);
  if (!outcome.ok) throw refused(`could not be fetched: ${outcome.reason}`);
  const { response } = outcome.result;
  if (!response.ok) throw refused(`could not be fetched (HTTP ${response.status})`);
  const read = await readBodyCapped(response, MAX_REFERENCE_BYTES, '20 MB');
  if (!read.ok) throw refused(read.reason);
  return checked(read.bytes, response.headers.get('content-type') ?? '', refused);
}

function checked(bytes: Uint8Array, type: string, refused: (why: string) => GatewayError): ReferenceImage {
  const contentType = type.split(';')[0]!.trim();
  if (!contentType.startsWith('image/')) throw refused(`is not an image (${contentType || 'no type'})`);
  if (bytes.byteLength > MAX_REFERENCE_BYTES) throw refused('exceeds 20 MB');
  return { bytes, contentType };
}
