import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { GatewayError } from '../errors';

type Form = Record<string, string | File | (string | File)[]>;

/**
 * The fields of a page's form post. A body that claims to be a form and is not (a multipart part
 * without `Content-Disposition`, a broken boundary) makes the runtime's form parser throw: that is
 * the client's 400 `invalid_request`, never a 500. `all` keeps repeated fields as arrays.
 */
export async function readFormPost(c: Context<AppEnv>, options: { all?: boolean } = {}): Promise<Form> {
  try {
    return await c.req.parseBody({ all: options.all ?? false });
  } catch {
    throw new GatewayError('invalid_request', 'The form could not be read: post it as application/x-www-form-urlencoded or multipart/form-data.');
  }
}
