/**
 * Local stand-ins for the embeddings APIs the gateway calls, for tests:
 * - OpenAI's `POST /v1/embeddings` (https://platform.openai.com/docs/api-reference/embeddings/create):
 *   strings or token arrays, `dimensions` up to the model's size, `encoding_format` `float` or
 *   `base64` (little-endian float32s), at most 2,048 inputs and 300,000 tokens a request, 8,192 an input;
 * - Mistral's and Together's, the same shape with text only, one size per model and no
 *   `dimensions` (Mistral answers 422 to a member it does not know, and 400 to more than 512 inputs
 *   or 16,384 tokens a request, as its API does);
 * - Gemini's `models/{model}:batchEmbedContents` (https://ai.google.dev/api/embeddings): at most
 *   100 requests, `outputDimensionality`, `embeddings[].values`, no token counts.
 * Vectors are deterministic (seeded by the model and the input); tokens are the input's UTF-8
 * bytes / 4, rounded up (a token array: its length). An input containing `[absurd-usage]` makes
 * the answer report 50,000,000 tokens; one containing `[error-500]` fails the request.
 */
import type { ServerResponse } from 'node:http';
import { isJson, sendJson, startUpstream, type Json, type Upstream } from './server';

export const ABSURD_USAGE = '[absurd-usage]';
export const ERROR_500 = '[error-500]';
const ABSURD_TOKENS = 50_000_000;

export interface OpenAIEmbeddingsOptions {
  name: 'openai' | 'mistral' | 'together';
  apiKey: string;
  /** Model id -> its native vector size. */
  models: Record<string, number>;
}

/** The vector a model gives an input: the same every time. */
export function simulatedVector(model: string, input: string | number[], dimensions: number): number[] {
  let seed = 0x811c9dc5;
  for (const char of `${model}|${JSON.stringify(input)}`) seed = Math.imul(seed ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return Array.from({ length: dimensions }, () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return Math.fround(seed / 0xffffffff - 0.5);
  });
}

export function simulatedTokens(input: string | number[]): number {
  return typeof input === 'string' ? Math.max(1, Math.ceil(Buffer.byteLength(input, 'utf8') / 4)) : input.length;
}

function base64Of(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}

const openaiError = (res: ServerResponse, status: number, message: string, param: string | null = null) =>
  sendJson(res, status, { error: { message, type: 'invalid_request_error', param, code: null } });

const isTokenArray = (value: unknown): value is number[] => Array.isArray(value) && value.length > 0 && value.every((n) => Number.isInteger(n));

function inputsOf(body: Json, tokenArrays: boolean): (string | number[])[] | undefined {
  const { input } = body;
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input) || input.length === 0) return undefined;
  if (input.every((item) => typeof item === 'string')) return input as string[];
  if (!tokenArrays) return undefined;
  if (isTokenArray(input)) return [input];
  return input.every(isTokenArray) ? (input as number[][]) : undefined;
}

export async function startOpenAIEmbeddingsUpstream(options: OpenAIEmbeddingsOptions): Promise<Upstream> {
  const openai = options.name === 'openai';
  const known = new Set(['model', 'input', 'encoding_format', ...(openai ? ['dimensions', 'user'] : [])]);
  return startUpstream((request, res) => {
    if (request.method !== 'POST' || request.path !== '/v1/embeddings') return openaiError(res, 404, `No route ${request.path}`);
    if (request.headers.authorization !== `Bearer ${options.apiKey}`) return openaiError(res, 401, 'Incorrect API key provided.');
    const body = isJson(request.body) ? request.body : {};
    const unknown = Object.keys(body).filter((member) => !known.has(member));
    if (unknown.length > 0) return openaiError(res, options.name === 'mistral' ? 422 : 400, `Extra inputs are not permitted: ${unknown.join(', ')}`, unknown[0]);
    const model = String(body.model);
    const native = options.models[model];
    if (native === undefined) return openaiError(res, 404, `The model ${model} does not exist.`, 'model');
    const inputs = inputsOf(body, openai);
    if (!inputs) return openaiError(res, 400, "'$.input' is invalid.", 'input');
    if (inputs.some((input) => typeof input === 'string' && input.includes(ERROR_500))) return openaiError(res, 500, 'The server had an error.');
    const tokens = inputs.map(simulatedTokens);
    if (openai && inputs.length > 2048) return openaiError(res, 400, "'$.input' must have at most 2048 items.", 'input');
    if (openai && tokens.reduce((a, b) => a + b, 0) > 300_000) return openaiError(res, 400, 'Requested 300001 tokens, max 300000 tokens per request', 'input');
    if (openai && tokens.some((count) => count > 8192)) return openaiError(res, 400, "This model's maximum context length is 8192 tokens.", 'input');
    const total = tokens.reduce((a, b) => a + b, 0);
    if (options.name === 'mistral' && total > 16_384) return openaiError(res, 400, `Too many tokens in batch. Max is 16384 got ${total}`);
    if (options.name === 'mistral' && inputs.length > 512) return openaiError(res, 400, 'Too many inputs in request, split into more batches.');
    const dimensions = typeof body.dimensions === 'number' ? body.dimensions : native;
    if (dimensions < 1 || dimensions > native) return openaiError(res, 400, `dimensions must be at most ${native}.`, 'dimensions');
    const base64 = body.encoding_format === 'base64';
    const reported = inputs.some((input) => typeof input === 'string' && input.includes(ABSURD_USAGE)) ? ABSURD_TOKENS : tokens.reduce((a, b) => a + b, 0);
    sendJson(res, 200, {
      object: 'list',
      data: inputs.map((input, index) => {
        const vector = simulatedVector(model, input, dimensions);
        return { object: 'embedding', index, embedding: base64 ? base64Of(vector) : vector };
      }),
      model,
      usage: { prompt_tokens: reported, total_tokens: reported },
      ...(options.name === 'mistral' && { id: `embd-${request.receivedAt}` }),
    });
  });
}

const googleError = (res: ServerResponse, code: number, status: string, message: string) => sendJson(res, code, { error: { code, message, status } });
const GEMINI_ROUTE = /^\/v1beta\/models\/([^/:?]+):batchEmbedContents$/;

/** Gemini's batchEmbedContents for `gemini-embedding-001` (3,072 dimensions, 128 and up). */
export async function startGeminiEmbeddingsUpstream(apiKey: string): Promise<Upstream> {
  return startUpstream((request, res) => {
    const route = GEMINI_ROUTE.exec(request.path);
    if (request.method !== 'POST' || !route) return googleError(res, 404, 'NOT_FOUND', `No route ${request.path}`);
    if (request.headers['x-goog-api-key'] !== apiKey) return googleError(res, 400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
    const model = route[1]!;
    if (model !== 'gemini-embedding-001') return googleError(res, 404, 'NOT_FOUND', `models/${model} is not found for API version v1beta.`);
    const requests = isJson(request.body) && Array.isArray(request.body.requests) ? request.body.requests.filter(isJson) : [];
    if (requests.length === 0) return googleError(res, 400, 'INVALID_ARGUMENT', '* BatchEmbedContentsRequest.requests: must not be empty');
    if (requests.length > 100) return googleError(res, 400, 'INVALID_ARGUMENT', '* BatchEmbedContentsRequest.requests: at most 100 requests can be in one batch');
    const embeddings: { values: number[] }[] = [];
    for (const item of requests) {
      if (item.model !== `models/${model}`) return googleError(res, 400, 'INVALID_ARGUMENT', `Model names in the batch must match: ${String(item.model)}`);
      const parts = isJson(item.content) && Array.isArray(item.content.parts) ? item.content.parts.filter(isJson) : [];
      const text = parts.map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
      if (!text) return googleError(res, 400, 'INVALID_ARGUMENT', '* BatchEmbedContentsRequest.requests[].content: must not be empty');
      if (text.includes(ERROR_500)) return googleError(res, 500, 'INTERNAL', 'An internal error has occurred.');
      const dimensions = typeof item.outputDimensionality === 'number' ? item.outputDimensionality : 3072;
      if (dimensions < 128 || dimensions > 3072) return googleError(res, 400, 'INVALID_ARGUMENT', 'outputDimensionality must be between 128 and 3072.');
      embeddings.push({ values: simulatedVector(model, text, dimensions) });
    }
    sendJson(res, 200, { embeddings });
  });
}
