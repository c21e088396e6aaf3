import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import type { BilledPathIn, ProductModule } from '../contract';
import { bodySchemaOf, parseBody } from '../route-body';
import { transcriptionHandler } from './handlers';
import type { TRANSCRIPTION } from './paths';
import { checkAudioLimits, holdSeconds, planTranscription, secondsCostMicros } from './plan';
import { transcriptions } from './routes';
import { uploadSource } from './source';

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(transcriptions, transcriptionHandler);
}

export const prices: ProductModule<BilledPathIn<typeof TRANSCRIPTION>>['prices'] = {
  // The JSON body only (`file_url`): the upload's size bounds its length, as the route holds it.
  '/v1/audio/transcriptions': async (body, c) => {
    const { file_url, ...input } = parseBody(transcriptions, body);
    const plan = planTranscription(input, c.env);
    const audio = await uploadSource(c, file_url);
    checkAudioLimits(plan, audio.param, audio);
    const micros = secondsCostMicros(plan.route, holdSeconds(plan, audio.bytes));
    return { model: plan.model.id, worstMicros: micros, minMicros: micros, estimatedMicros: micros };
  },
};

export const tools: ProductModule<never>['tools'] = [
  {
    name: 'transcribe',
    description: 'Transcribe one of your audio uploads (POST /v1/audio/transcriptions with file_url: an MP3, WAV or M4A public_url from POST /v1/uploads). Billed per second of audio.',
    args: bodySchemaOf(transcriptions),
    request: (args) => ({ method: 'POST', path: '/v1/audio/transcriptions', body: args }),
  },
];
