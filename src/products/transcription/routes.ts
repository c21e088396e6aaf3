import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../env';
import { multipartBoundary } from '../../http/multipart-reader';
import { apiKey } from '../../middleware/api-key';
import { limitBody, MiB } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { bearerAuth, errors } from '../../routes/schemas';
import { x402Payment } from '../../x402/middleware';
import { at } from '../contract';
import { TRANSCRIPTION } from './paths';
import { TRANSCRIPTION_MULTIPART_SCHEMA, TranscriptionJson } from './request';

/** A JSON body is parsed as every JSON route's is (D20); a multipart one is left to stream. */
function jsonUnlessMultipart(): MiddlewareHandler<AppEnv> {
  const json = parseJsonBody();
  return (c, next) => (multipartBoundary(c.req.header('content-type')) ? next() : json(c, next));
}

export const transcriptions = createRoute({
  ...at(TRANSCRIPTION.transcribe),
  tags: ['media'],
  summary: 'Transcribe up to 25 MB of MP3, WAV or M4A audio; billed per second of audio, as the gateway measures it',
  security: bearerAuth,
  // 25 MB of audio and its multipart fields.
  middleware: [apiKey(), x402Payment(), limitBody(26 * MiB), jsonUnlessMultipart()] as const,
  request: {
    body: {
      content: {
        'multipart/form-data': { schema: TRANSCRIPTION_MULTIPART_SCHEMA },
        'application/json': { schema: TranscriptionJson },
      },
    },
  },
  responses: {
    200: {
      description: 'The transcript: JSON (`{text, usage}`, or OpenAI\'s verbose shape for `verbose_json`), plain text for `text`',
      headers: z.object({ 'X-Service-Cost': z.string(), 'X-Service-Credits-Remaining': z.string(), 'X-Service-Request-Id': z.string() }),
    },
    ...errors(400, 401, 402, 403, 404, 413, 429, 502, 503),
  },
});
