import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import * as generations from '../media/generations.handlers';
import * as generationsRoutes from '../media/generations.routes';
import * as uploadsApi from '../media/uploads.handlers';
import * as uploadsRoutes from '../media/uploads.routes';

/** The account's generations and uploads (free): the `media` group of `LAZY_ROUTES`, in its order. */
export function register(app: OpenAPIHono<AppEnv>) {
  app
    .openapi(generationsRoutes.listGenerations, generations.listGenerationsHandler)
    .openapi(uploadsRoutes.createUpload, uploadsApi.createUploadHandler)
    .openapi(uploadsRoutes.listUploads, uploadsApi.listUploadsHandler);
}
