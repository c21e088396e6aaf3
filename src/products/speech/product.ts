import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import type { BilledPathIn, ProductModule } from '../contract';
import { bodySchemaOf, parseBody } from '../route-body';
import { speechHandler } from './handlers';
import type { SPEECH } from './paths';
import { planSpeech } from './plan';
import { speech } from './routes';

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(speech, speechHandler);
}

export const prices: ProductModule<BilledPathIn<typeof SPEECH>>['prices'] = {
  '/v1/audio/speech': async (body, c) => {
    const plan = planSpeech(parseBody(speech, body), c.env);
    return { model: plan.model.id, worstMicros: plan.costMicros, minMicros: plan.costMicros, estimatedMicros: plan.costMicros };
  },
};

export const tools: ProductModule<never>['tools'] = [
  {
    name: 'create_speech',
    description: 'Speak text (POST /v1/audio/speech); answers a hosted MP3 link. Billed per character.',
    args: bodySchemaOf(speech),
    request: (args) => ({ method: 'POST', path: '/v1/audio/speech', body: args }),
  },
];
