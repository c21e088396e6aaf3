import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import type { BilledPathIn, ProductModule } from '../contract';
import { bodySchemaOf, parseBody } from '../route-body';
import { transcriptionHandler } from './handlers';
import type { TRANSCRIPTION } from './paths';
import { checkAudioLimits, holdMicros, planTranscription } from './plan';
import { transcriptions } from './routes';
import { uploadSource } from './source';
import { TranscriptionOptions } from './request';
import { GatewayError, validationError } from '../../errors';

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(transcriptions, transcriptionHandler);
}

export const prices: ProductModule<BilledPathIn<typeof TRANSCRIPTION>>['prices'] = {
  // The JSON body (`file_url`): the upload's size bounds its length, as the route holds it. A
  // multipart form (x402's keyless challenge) is priced by its file's size at the lowest bitrate.
  '/v1/audio/transcriptions': async (body, c) => {
    if (body instanceof FormData) return priceForm(body, c.env);
    const { file_url, ...input } = parseBody(transcriptions, body);
    const plan = planTranscription(input, c.env);
    const audio = await uploadSource(c, file_url);
    checkAudioLimits(plan, audio.param, audio);
    const micros = holdMicros(plan, audio.bytes);
    return { model: plan.model.id, worstMicros: micros, minMicros: micros, estimatedMicros: micros };
  },
};

/** A multipart body's bound: its fields as the route validates them, its file's size as `holdSeconds` bounds it (its length is read only as it streams). */
function priceForm(form: FormData, env: Env) {
  const fields = Object.fromEntries([...form.entries()].flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])));
  const parsed = TranscriptionOptions.safeParse(fields);
  if (!parsed.success) throw validationError(parsed.error);
  const plan = planTranscription(parsed.data, env);
  const file = form.get('file');
  if (!(file instanceof File)) throw new GatewayError('invalid_request', 'A keyless transcription sends its audio as the multipart `file`.', { param: 'file' });
  checkAudioLimits(plan, 'file', { bytes: file.size });
  const micros = holdMicros(plan, file.size);
  return { model: plan.model.id, worstMicros: micros, minMicros: micros, estimatedMicros: micros };
}

export const tools: ProductModule<never>['tools'] = [
  {
    name: 'transcribe',
    description: 'Transcribe one of your audio uploads (POST /v1/audio/transcriptions with file_url: an MP3, WAV or M4A public_url from POST /v1/uploads). Billed per second of audio.',
    args: bodySchemaOf(transcriptions),
    request: (args) => ({ method: 'POST', path: '/v1/audio/transcriptions', body: args }),
  },
];
