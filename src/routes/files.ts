import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { GatewayError } from '../errors';
import { OBJECT_KINDS } from '../media/keys';

/**
 * `GET /files/<key>`: hosted objects (generated media, uploads, job results), with their type,
 * length and ETag, `Range` requests (206, for video and audio players) and `If-None-Match` (304).
 * Keys carry a random part, so a link is a capability: unguessable and listed nowhere public (D10).
 */
export async function serveFile(c: Context<AppEnv>): Promise<Response> {
  const key = c.req.path.slice('/files/'.length);
  if (!OBJECT_KINDS.some((kind) => key.startsWith(`${kind}/`))) throw new GatewayError('not_found', 'No such file.');
  const range = parseRange(c.req.header('Range'));
  const head = range === 'unsatisfiable' || range ? await c.env.MEDIA.head(key) : null;
  if ((range === 'unsatisfiable' || range) && !head) throw new GatewayError('not_found', 'No such file (it may have expired).');
  const bounded = head && range && range !== 'unsatisfiable' ? clamp(range, head.size) : null;
  if (head && (range === 'unsatisfiable' || !bounded)) {
    return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${head.size}`, 'Accept-Ranges': 'bytes' } });
  }

  const object = await c.env.MEDIA.get(key, { onlyIf: c.req.raw.headers, ...(bounded ? { range: bounded } : {}) });
  if (!object) throw new GatewayError('not_found', 'No such file (it may have expired).');
  const headers = new Headers();
  object.writeHttpMetadata(headers);
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
