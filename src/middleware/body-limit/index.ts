import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';

export const KiB = 1024;
export const MiB = 1024 * KiB;

/** Rejects a body larger than `maxBytes` with 413 in the error envelope, before it is parsed. */
export function limitBody(maxBytes: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new GatewayError('request_too_large', `The request body exceeds this route's limit of ${maxBytes} bytes.`);
    },
  });
}
