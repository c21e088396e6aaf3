import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { GatewayError } from '../errors';
import { isHostedKey } from '../media/keys';
import { isUploadType } from '../media/uploads';

/**
 * `GET /files/<key>`: hosted objects (generated media, uploads, job results), with their type,
 * length and ETag, `Range` requests (206, for video and audio players) and `If-None-Match` (304).
 * Keys carry a random part, so a link is a capability: unguessable and listed nowhere public (D10).
 * Every header is the gateway's own choice: nothing R2 stored beside the bytes (a client's
 * `Content-Encoding`, `Content-Disposition`, `Cache-Control` on a presigned PUT) is replayed. An
 * upload is served only as its reservation says (its declared type) and only in the version the
 * gateway pinned when it first found it stored: a later PUT to its presigned URL is never served.
 */
export async function serveFile(c: Context<AppEnv>): Promise<Response> {
  const key = c.req.path.slice('/files/'.length);
  if (!isHostedKey(key)) throw new GatewayError('not_found', 'No such file.');
  const upload = key.startsWith('uploads/') ? await pinnedUpload(c.env, key) : null;
  const range = parseRange(c.req.header('Range'));
  const head = range === 'unsatisfiable' || range ? await c.env.MEDIA.head(key) : null;
  if ((range === 'unsatisfiable' || range) && !head) throw gone();
  const bounded = head && range && range !== 'unsatisfiable' ? clamp(range, head.size) : null;
  if (head && (range === 'unsatisfiable' || !bounded)) {
    return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${head.size}`, 'Accept-Ranges': 'bytes' } });
  }

  const object = await getConditionally(c.env.MEDIA, key, c.req.raw.headers, bounded);
  if (!object) throw gone();
  if (upload && object.etag !== upload.etag) {
    if ('body' in object) await object.body.cancel();
    const [{ database }, { replaced }] = await Promise.all([import('../db'), import('../media/upload-check')]);
    await replaced(c.env.MEDIA, database(c.env), key, Date.now());
    throw gone();
  }
  const headers = new Headers();
  headers.set('Content-Type', upload?.contentType ?? object.httpMetadata?.contentType ?? 'application/octet-stream');
  makeInert(headers);
  headers.set('ETag', object.httpEtag);
  headers.set('Cache-Control', 'private, max-age=3600');
  headers.set('Accept-Ranges', 'bytes');
  if (!('body' in object)) return new Response(null, { status: 304, headers });
  if (bounded) {
    headers.set('Content-Range', `bytes ${bounded.offset}-${bounded.offset + bounded.length - 1}/${object.size}`);
    headers.set('Content-Length', String(bounded.length));
    return new Response(object.body, { status: 206, headers });
  }
  headers.set('Content-Length', String(object.size));
  return new Response(object.body, { headers });
}

const gone = () => new GatewayError('not_found', 'No such file (it may have expired).');

/**
 * An upload's reservation while it is hosted, with the ETag of its stored version (checked and
 * pinned now when a presigned PUT was never seen); 404 for anything else.
 */
async function pinnedUpload(env: Env, key: string): Promise<{ contentType: string; etag: string }> {
  // Only an upload's link reads D1: the module stays out of what startup evaluates (docs/contributors/architecture.md, "Startup").
  const [{ database }, { uploadOfKey }, { checkUpload }] = await Promise.all([import('../db'), import('../db/uploads'), import('../media/upload-check')]);
  const db = database(env);
  const now = Date.now();
  const row = await uploadOfKey(db, key);
  if (!row || row.expiresAt <= now) throw gone();
  if (row.uploadedAt !== null && row.etag !== null) return { contentType: row.contentType, etag: row.etag };
  const check = await checkUpload(env.MEDIA, db, row, now);
  if (!check.ok) throw gone();
  return { contentType: row.contentType, etag: check.etag };
}

/**
 * A hosted file is served from the dashboard's origin, so nothing in it may run there: the
 * browser must not guess another type (`nosniff`), a document opened from it gets a sandbox
 * with no origin and no loads, and anything but the image, audio and video types the gateway
 * accepts as uploads (an SVG, HTML or JSON a provider or a job produced) is a download.
 */
function makeInert(headers: Headers): void {
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Content-Security-Policy', "sandbox; default-src 'none'");
  const type = headers.get('Content-Type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (isUploadType(type)) headers.delete('Content-Disposition');
  else headers.set('Content-Disposition', 'attachment');
}

/**
 * The object, under the request's conditional headers (`If-None-Match`, `If-Modified-Since`, ...).
 * The R2 binding throws on one it cannot parse (`If-None-Match: abc`, an unclosed quote); such a
 * condition is ignored, as RFC 9110 has a server ignore an invalid one, and the object served whole.
 */
async function getConditionally(bucket: R2Bucket, key: string, headers: Headers, range: R2Range | null): Promise<R2ObjectBody | R2Object | null> {
  const options = range ? { range } : {};
  try {
    return await bucket.get(key, { onlyIf: headers, ...options });
  } catch (err) {
    if (!CONDITIONAL_HEADERS.some((name) => headers.has(name))) throw err;
    return bucket.get(key, options);
  }
}

const CONDITIONAL_HEADERS = ['if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since'];

type ByteRange = { start: number; end?: number } | { suffix: number };

/** One `bytes=` range (what players send); several ranges are served whole, as RFC 9110 allows. */
export function parseRange(header: string | undefined): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, start, end] = match;
  if (start === '' && end === '') return null;
  if (start === '') return Number(end) === 0 ? 'unsatisfiable' : { suffix: Number(end) };
  if (end !== '' && Number(end) < Number(start)) return null;
  return { start: Number(start), ...(end === '' ? {} : { end: Number(end) }) };
}

/** The range within an object of `size` bytes, or null when none of it is there. */
function clamp(range: ByteRange, size: number): { offset: number; length: number } | null {
  if ('suffix' in range) return size === 0 ? null : { offset: Math.max(0, size - range.suffix), length: Math.min(range.suffix, size) };
  if (range.start >= size) return null;
  const end = Math.min(range.end ?? size - 1, size - 1);
  return { offset: range.start, length: end - range.start + 1 };
}
