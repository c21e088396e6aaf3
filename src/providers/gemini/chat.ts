/**
 * Chat completions over Google's Gemini API (`generateContent` / `streamGenerateContent?alt=sse`).
 * Request mapping lives in `request.ts` and `schema.ts`, answers in `response.ts`, and the tool call
 * ids that carry Gemini's thought signatures through the client in `tool-ids.ts`.
 */
import type { ChatAdapter } from '../chat/types';
import { geminiBody } from './request';
import { geminiStreamTranslator, parseGeminiResponse } from './response';
import { isGoogleError } from './wire';

export const geminiChat: ChatAdapter = {
  async buildRequest(request, target, fetchImage) {
    const model = encodeURIComponent(target.upstreamModel);
    const path = request.stream ? `streamGenerateContent?alt=sse` : 'generateContent';
    return {
      url: `${target.baseUrl}/models/${model}:${path}`,
      headers: { 'x-goog-api-key': target.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(await geminiBody(request, fetchImage)),
    };
  },

  parseResponse: parseGeminiResponse,

  streamTranslator: geminiStreamTranslator,

  errorMessage(status, body) {
    if (isGoogleError(body) && body.error.message) return body.error.message;
    return `Gemini answered HTTP ${status}.`;
  },
};
