import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import { requireStoredUploads } from '../../media/upload-check';
import { publicBaseUrl } from '../../urls';
import type { BilledPathIn, ProductModule } from '../contract';
import { parseBody } from '../route-body';
import { getVideoHandler, submitVideoHandler } from './handlers';
import type { VIDEOS } from './paths';
import { planVideo } from './plan';
import { getVideo, submitVideo } from './routes';

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(submitVideo, submitVideoHandler).openapi(getVideo, getVideoHandler);
}

export const prices: ProductModule<BilledPathIn<typeof VIDEOS>>['prices'] = {
  '/v1/videos/generations': async (body, c) => {
    const plan = planVideo(parseBody(submitVideo, body), c.env);
    await Promise.all(plan.links.map((link) => requireStoredUploads(c.env, publicBaseUrl(c), link.urls, link.param, link.kind)));
    return { model: plan.model.id, worstMicros: plan.predictedMicros, minMicros: plan.predictedMicros, estimatedMicros: plan.predictedMicros };
  },
};

/** None: the contract's MCP tools (D24) submit no video; `get_job {kind: "video"}` polls one made over REST. */
export const tools: ProductModule<never>['tools'] = [];
