import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import type { BilledPathIn, ProductModule } from '../contract';
import { bodySchemaOf, parseBody } from '../route-body';
import { embeddingsHandler } from './handlers';
import type { EMBEDDINGS } from './paths';
import { planEmbeddings } from './plan';
import { embeddings } from './routes';

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(embeddings, embeddingsHandler);
}

export const prices: ProductModule<BilledPathIn<typeof EMBEDDINGS>>['prices'] = {
  '/v1/embeddings': async (body, c) => {
    const plan = planEmbeddings(parseBody(embeddings, body), c.env);
    return { model: plan.model.id, worstMicros: plan.holdMicros, minMicros: plan.holdMicros, estimatedMicros: plan.estimateMicros };
  },
};

export const tools: ProductModule<never>['tools'] = [
  {
    name: 'create_embedding',
    description: 'Embed text for search and memory (POST /v1/embeddings, OpenAI shape); answers one vector per input. Billed per input token.',
    args: bodySchemaOf(embeddings),
    request: (args) => ({ method: 'POST', path: '/v1/embeddings', body: args }),
  },
];
