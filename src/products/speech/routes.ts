import { createRoute, z } from '@hono/zod-openapi';
import { at } from '../contract';
import { SPEECH } from './paths';
import { MediaUrlResponse } from '../images/request';
import { SpeechRequest } from './request';
import { apiKey } from '../../middleware/api-key';
import { x402Payment } from '../../x402/middleware';
import { KiB, limitBody } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { bearerAuth, errors, jsonBody, jsonResponse } from '../../routes/schemas';

export const speech = createRoute({
  ...at(SPEECH.speak),
  tags: ['media'],
  summary: 'Speak up to 10,000 characters; answers a hosted MP3 link, billed per character',
  security: bearerAuth,
  middleware: [apiKey(), x402Payment(), limitBody(128 * KiB), parseJsonBody()] as const,
  request: { body: jsonBody(SpeechRequest) },
  responses: {
    200: {
      ...jsonResponse(MediaUrlResponse, 'One link to the MP3'),
      headers: z.object({ 'X-Service-Cost': z.string(), 'X-Service-Credits-Remaining': z.string(), 'X-Service-Request-Id': z.string() }),
    },
    ...errors(400, 401, 402, 403, 404, 429, 502, 503),
  },
});
