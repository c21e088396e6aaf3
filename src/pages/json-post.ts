import type { Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../env';
import { GatewayError, validationError } from '../errors';
import { checkCsrf } from './security';

/** The header our pages' scripts repeat the CSRF token in (`/assets/claim.js`). */
export const CSRF_HEADER = 'X-CSRF-Token';

/**
 * The body of a page script's JSON post (the passkey ceremonies), after the same CSRF checks as a
 * form: the token in `X-CSRF-Token` must equal the page's cookie, and the request must come from
 * our origin. A malformed body is 400 `invalid_request`, never a 500.
 */
export async function readJsonPost<T extends z.ZodType>(c: Context<AppEnv>, schema: T): Promise<z.infer<T>> {
  checkCsrf(c, c.req.header(CSRF_HEADER));
  const text = await c.req.text();
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new GatewayError('invalid_request', 'The request body is not valid JSON: send one JSON object.');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}
