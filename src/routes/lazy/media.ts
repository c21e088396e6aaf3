import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import * as imageJobs from '../../products/images/job-handlers';
import * as images from '../../products/images/handlers';
import * as imagesRoutes from '../../products/images/routes';
import * as speech from '../../products/speech/handlers';
import * as speechRoutes from '../../products/speech/routes';
import * as uploadsApi from '../media/uploads.handlers';
import * as uploadsRoutes from '../media/uploads.routes';
import * as videos from '../../products/videos/handlers';
import * as videosRoutes from '../../products/videos/routes';

/** Images, speech, videos and uploads: the `media` group of `LAZY_ROUTES`, in its order. */
export function register(app: OpenAPIHono<AppEnv>) {
  app
    .openapi(imagesRoutes.generateImages, images.generateImagesHandler)
    .openapi(imagesRoutes.submitImageJob, imageJobs.submitImageJobHandler)
    .openapi(imagesRoutes.getImageJob, imageJobs.getImageJobHandler)
    .openapi(imagesRoutes.listGenerations, images.listGenerationsHandler)
    .openapi(speechRoutes.speech, speech.speechHandler)
    .openapi(videosRoutes.submitVideo, videos.submitVideoHandler)
    .openapi(videosRoutes.getVideo, videos.getVideoHandler)
    .openapi(uploadsRoutes.createUpload, uploadsApi.createUploadHandler)
    .openapi(uploadsRoutes.listUploads, uploadsApi.listUploadsHandler);
}
