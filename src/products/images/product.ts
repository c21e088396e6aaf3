import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import { requireStoredUploads } from '../../media/upload-check';
import { publicBaseUrl } from '../../urls';
import type { BilledPathIn, Pricer, ProductModule } from '../contract';
import { bodySchemaOf, parseBody } from '../route-body';
import { imageHoldMicros } from './cost';
import { generateImagesHandler } from './handlers';
import { getImageJobHandler, submitImageJobHandler } from './job-handlers';
import type { IMAGES } from './paths';
import { planImages } from './plan';
import { generateImages, getImageJob, submitImageJob } from './routes';

export function register(app: OpenAPIHono<AppEnv>) {
  app
    .openapi(generateImages, generateImagesHandler)
    .openapi(submitImageJob, submitImageJobHandler)
    .openapi(getImageJob, getImageJobHandler);
}

/** Inline and job renders hold alike: every image at its price, references checked as stored uploads. */
const priceImages = (route: typeof generateImages | typeof submitImageJob): Pricer => async (body, c) => {
  const plan = planImages(parseBody(route, body), c.env);
  await requireStoredUploads(c.env, publicBaseUrl(c), plan.references, plan.referencesParam);
  const micros = imageHoldMicros(plan);
  return { model: plan.model.id, worstMicros: micros, minMicros: micros, estimatedMicros: micros };
};

export const prices: ProductModule<BilledPathIn<typeof IMAGES>>['prices'] = {
  '/v1/images/generations': priceImages(generateImages),
  '/v1/images/jobs': priceImages(submitImageJob),
};

export const tools: ProductModule<never>['tools'] = [
  {
    name: 'generate_image',
    description: 'Generate an image (POST /v1/images/generations); answers a hosted link. Billed per image.',
    args: bodySchemaOf(generateImages),
    request: (args) => ({ method: 'POST', path: '/v1/images/generations', body: args }),
  },
];
