import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../env';
import { validationError } from '../errors';

/** An app whose routes' validators throw the envelope's `validation_error` (every route table uses it). */
export function apiApp(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error);
    },
  });
}
