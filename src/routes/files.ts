import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { GatewayError } from '../errors';
import { OBJECT_KINDS } from '../media/keys';

/**
 * `GET /files/<key>`: hosted objects (job results, later media). Keys carry a random part, so a
 * link is a capability: unguessable and listed nowhere public (D10).
 */
export async function serveFile(c: Context<AppEnv>): Promise<Response> {
  const key = c.req.path.slice('/files/'.length);
  if (!OBJECT_KINDS.some((kind) => key.startsWith(`${kind}/`))) throw new GatewayError('not_found', 'No such file.');
  const object = await c.env.MEDIA.get(key);
  if (!object) throw new GatewayError('not_found', 'No such file (it may have expired).');
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set('ETag', object.httpEtag);
  headers.set('Cache-Control', 'private, max-age=3600');
  return new Response(object.body, { headers });
}
