/**
 * A local OpenAI-compatible server as Ollama and vLLM serve one, for tests:
 * - `GET /v1/models`: `{"object": "list", "data": [{"id", "object": "model", "created", "owned_by"}]}`,
 *   `owned_by` "library" (Ollama, https://github.com/ollama/ollama/blob/main/docs/openai.md), or
 *   "vllm" with `root` and `max_model_len` (vLLM's ModelCard);
 * - `POST /v1/chat/completions`, whole or streamed as `data:` chunks ending in `data: [DONE]`, with a
 *   usage chunk when `stream_options.include_usage` is asked (both servers answer it);
 * - `POST /v1/embeddings` on its embedding models (`{"object": "list", "data": [{"object": "embedding",
 *   "embedding", "index"}], "model", "usage"}`), a 400 on another model, a 404 on an unknown one.
 * The answer is "<model> heard: <last user text>"; tokens are the text's characters / 4, rounded up.
 * With `apiKey`, a request without `Authorization: Bearer <apiKey>` is a 401 (vLLM's `--api-key`).
 */
import type { ServerResponse } from 'node:http';
import { simulatedVector } from './embeddings';
import { isJson, sendJson, startSse, startUpstream, type Json, type Upstream } from './server';

export interface LocalModel {
  id: string;
  kind: 'chat' | 'embedding';
  /** vLLM only: the context length it reports. */
  maxModelLen?: number;
  /** Embedding models: the vector size. */
  dimensions?: number;
}

export interface LocalOpenAIOptions {
  flavor: 'ollama' | 'vllm';
  models: LocalModel[];
  apiKey?: string;
}

/** Ollama's default models in these tests: a chat model and an embedding model, as `ollama pull` names them. */
export const OLLAMA_MODELS: LocalModel[] = [
  { id: 'llama3.2:1b', kind: 'chat' },
  { id: 'nomic-embed-text:latest', kind: 'embedding', dimensions: 768 },
];

/** vLLM serves one model, named by its Hugging Face id, with its context length. */
export const VLLM_MODELS: LocalModel[] = [{ id: 'Qwen/Qwen2.5-0.5B-Instruct', kind: 'chat', maxModelLen: 4096 }];

const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (isJson(part) && typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}

export const localAnswer = (model: string, heard: string) => `${model} heard: ${heard}`;

export async function startLocalOpenAIUpstream(options: LocalOpenAIOptions): Promise<Upstream> {
  const created = 1_733_000_000;
  const byId = new Map(options.models.map((model) => [model.id, model]));
  const error = (res: ServerResponse, status: number, message: string) => sendJson(res, status, { error: { message, type: 'invalid_request_error', code: null } });
  return startUpstream(async (request, res) => {
    if (options.apiKey && request.headers.authorization !== `Bearer ${options.apiKey}`) return error(res, 401, 'invalid api key');
    const path = request.path.split('?')[0];
    if (request.method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, {
        object: 'list',
        data: options.models.map((model) =>
          options.flavor === 'vllm'
            ? { id: model.id, object: 'model', created, owned_by: 'vllm', root: model.id, parent: null, max_model_len: model.maxModelLen ?? 8192, permission: [] }
            : { id: model.id, object: 'model', created, owned_by: 'library' },
        ),
      });
    }
    const body: Json = isJson(request.body) ? request.body : {};
    const model = typeof body.model === 'string' ? byId.get(body.model) : undefined;
    if (request.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/v1/embeddings')) return error(res, 404, `no route ${request.method} ${path}`);
    if (!model) return error(res, 404, `model "${String(body.model)}" not found, try pulling it first`);
    if (path === '/v1/embeddings') {
      if (model.kind !== 'embedding') return error(res, 400, `"${model.id}" does not support embeddings`);
      const inputs = Array.isArray(body.input) ? body.input.map(String) : [String(body.input)];
      const size = typeof body.dimensions === 'number' ? body.dimensions : (model.dimensions ?? 768);
      const prompt = inputs.reduce((sum, input) => sum + tokens(input), 0);
      return sendJson(res, 200, {
        object: 'list',
        data: inputs.map((input, index) => ({ object: 'embedding', embedding: simulatedVector(model.id, input, size), index })),
        model: model.id,
        usage: { prompt_tokens: prompt, total_tokens: prompt },
      });
    }
    if (model.kind !== 'chat') return error(res, 400, `"${model.id}" does not support chat`);
    const messages = Array.isArray(body.messages) ? body.messages.filter(isJson) : [];
    const heard = textOf([...messages].reverse().find((message) => message.role === 'user')?.content);
    const text = localAnswer(model.id, heard);
    const usage = { prompt_tokens: messages.reduce((sum, message) => sum + tokens(textOf(message.content)), 0), completion_tokens: tokens(text) };
    const wire = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
    const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
    if (body.stream !== true) {
      return sendJson(res, 200, { id, object: 'chat.completion', created, model: model.id, system_fingerprint: 'fp_ollama', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage: wire });
    }
    const sse = startSse(res);
    const chunk = (delta: Json, finish: string | null) => `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: model.id, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    sse.write(chunk({ role: 'assistant', content: '' }, null));
    for (const piece of text.match(/\S+\s*/g) ?? []) sse.write(chunk({ content: piece }, null));
    sse.write(chunk({}, 'stop'));
    const streamOptions = isJson(body.stream_options) ? body.stream_options : {};
    if (streamOptions.include_usage === true) sse.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: model.id, choices: [], usage: wire })}\n\n`);
    sse.write('data: [DONE]\n\n');
    sse.end();
  });
}
