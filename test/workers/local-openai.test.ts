import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { discoverLocalModels, FRESH_MS } from '../../src/catalog/local';
import { formatUsd } from '../../src/money';
import { localAnswer } from '../upstreams/local-openai';
import { LOCAL_VLLM_KEY } from './global-setup';
import { accountStub, adminCredit, register } from './helpers';

/**
 * A local OpenAI-compatible server as a provider (LOCAL_OPENAI_BASE_URL): its models discovered
 * from its GET /v1/models as `local/<id>`, priced by LOCAL_OPENAI_PRICES, served for chat and
 * embeddings through the usual hold and settlement. Against the Ollama-shaped and vLLM-shaped
 * simulators (test/upstreams/local-openai.ts).
 */
const app = createApp();
const { ollama, vllm } = inject('localOpenAIUpstreams');
/** Each test its own configuration, so it discovers on its own (the list is kept per configuration). */
const ollamaEnv = (extra: Record<string, string> = {}) =>
  ({ ...env, LOCAL_OPENAI_BASE_URL: `${ollama}/v1`, LOCAL_OPENAI_EMBEDDING_MODELS: crypto.randomUUID(), LOCAL_OPENAI_PRICES: JSON.stringify({ 'llama3.2:1b': { input: 1, output: 2 } }), ...extra }) as Env;

async function send(path: string, gatewayEnv: Env, init: { apiKey?: string; body?: unknown } = {}) {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`https://gateway.test${path}`, {
      method: init.body === undefined ? 'GET' : 'POST',
      headers: { ...(init.apiKey && { Authorization: `Bearer ${init.apiKey}` }), 'Content-Type': 'application/json' },
      ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
    }),
    gatewayEnv,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, text };
}

interface Listed {
  id: string;
  type: string;
  owned_by: string;
  context_length: number | null;
  pricing: { input: number; output: number };
}
const listed = async (gatewayEnv: Env) => (JSON.parse((await send('/v1/models', gatewayEnv)).text) as { data: Listed[] }).data;
const modelListCalls = async (url: string) => ((await (await fetch(`${url}/__recorded`)).json()) as { method: string; path: string }[]).filter((r) => r.method === 'GET' && r.path === '/v1/models').length;

async function funded() {
  const agent = await register();
  expect((await adminCredit(agent.account_id, '1')).status).toBe(200);
  return agent;
}

describe('a local OpenAI-compatible server as a provider', () => {
  it('lists the models Ollama reports as local/<id>, chat and embedding, priced from LOCAL_OPENAI_PRICES (0 where unset), and no demo model', async () => {
    const data = await listed(ollamaEnv());
    const local = data.filter((model) => model.id.startsWith('local/'));
    expect(local.map((model) => [model.id, model.type])).toEqual([
      ['local/llama3.2:1b', 'chat'],
      ['local/nomic-embed-text:latest', 'embedding'],
    ]);
    expect(local[0]).toMatchObject({ owned_by: 'local', context_length: 32768, pricing: { input: 1e-6, output: 2e-6 } });
    expect(local[1]!.pricing).toMatchObject({ input: 0, output: 0 });
    expect(data.some((model) => model.id === 'gateway/echo')).toBe(false);
  });

  it('shows the local models on the catalog page a person reads, before any request named one', async () => {
    const { res, text } = await send('/models?q=local', ollamaEnv());
    expect(res.status).toBe(200);
    const ids = [...text.matchAll(/<td data-label="Model"><code>([^<]+)<\/code>/g)].map((m) => m[1]);
    expect(ids).toContain('local/llama3.2:1b');
    expect(ids.every((id) => id!.startsWith('local/'))).toBe(true);
  });

  it("names as a fallback (models) only a model of the request's own server, not one another configuration discovered", async () => {
    const agent = await funded();
    // This isolate knows vLLM's list too (discovered most recently)...
    await listed({ ...env, LOCAL_OPENAI_BASE_URL: vllm, LOCAL_OPENAI_API_KEY: LOCAL_VLLM_KEY } as Env);
    // ...but Ollama serves no Qwen: naming it is refused, naming models.0.
    const { res, text } = await send('/v1/chat/completions', ollamaEnv(), {
      apiKey: agent.api_key,
      body: { model: 'local/llama3.2:1b', models: ['local/Qwen/Qwen2.5-0.5B-Instruct'], messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(res.status, text).toBe(400);
    expect((JSON.parse(text) as { error: { param: string } }).error.param).toBe('models.0');
  });

  it('reads vLLM’s max_model_len as the context length and sends LOCAL_OPENAI_API_KEY (base URL written without /v1)', async () => {
    const good = await listed({ ...env, LOCAL_OPENAI_BASE_URL: vllm, LOCAL_OPENAI_API_KEY: LOCAL_VLLM_KEY } as Env);
    expect(good.filter((model) => model.id.startsWith('local/'))).toEqual([expect.objectContaining({ id: 'local/Qwen/Qwen2.5-0.5B-Instruct', type: 'chat', context_length: 4096 })]);
    // A wrong key: the server answers 401, so nothing is discovered (and the listing still answers).
    const wrong = await listed({ ...env, LOCAL_OPENAI_BASE_URL: vllm, LOCAL_OPENAI_API_KEY: 'wrong' } as Env);
    expect(wrong.some((model) => model.id.startsWith('local/'))).toBe(false);
  });

  it('asks the server for its models once per minute per isolate, refreshing a stale list in the background', async () => {
    const gatewayEnv = ollamaEnv();
    const before = await modelListCalls(ollama);
    await listed(gatewayEnv);
    await listed(gatewayEnv);
    expect(await modelListCalls(ollama)).toBe(before + 1);
    const refreshes: Promise<unknown>[] = [];
    await discoverLocalModels(gatewayEnv, (promise) => refreshes.push(promise), Date.now() + FRESH_MS + 1);
    // The stale list answered at once; its refresh ran apart.
    expect(refreshes).toHaveLength(1);
    await Promise.all(refreshes);
    expect(await modelListCalls(ollama)).toBe(before + 2);
  });

  it.each([false, true])('serves a chat on a local model at the operator’s price, billed and looked up (stream: %s)', async (stream) => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    const { res, text } = await send('/v1/chat/completions', ollamaEnv(), { apiKey: agent.api_key, body: { model: 'local/llama3.2:1b', stream, messages: [{ role: 'user', content: `Hi ${nonce}` }] } });
    expect(res.status, text).toBe(200);
    expect(res.headers.get('x-service-provider')).toBe('local_openai');
    let answer: string;
    let usage: { prompt_tokens: number; completion_tokens: number };
    if (stream) {
      const events = text.split('\n').filter((line) => line.startsWith('data: {')).map((line) => JSON.parse(line.slice(6)) as { choices?: { delta?: { content?: string } }[]; usage?: typeof usage });
      answer = events.map((event) => event.choices?.[0]?.delta?.content ?? '').join('');
      usage = events.at(-1)!.usage!;
    } else {
      const body = JSON.parse(text) as { model: string; choices: { message: { content: string } }[]; usage: typeof usage };
      expect(body.model).toBe('local/llama3.2:1b');
      answer = body.choices[0]!.message.content;
      usage = body.usage;
    }
    expect(answer).toBe(localAnswer('llama3.2:1b', `Hi ${nonce}`));
    // $1 and $2 per million tokens: 1 and 2 micro-dollars a token.
    const micros = usage.prompt_tokens + 2 * usage.completion_tokens;
    const charge = (await accountStub(agent.account_id).ledgerEntries(10)).find((row) => row.kind === 'charge')!;
    expect(-charge.amountMicros).toBe(micros);
    if (!stream) expect(res.headers.get('x-service-cost')).toBe(formatUsd(micros));
    const recorded = (await (await fetch(`${ollama}/__recorded`)).json()) as { path: string; body?: { model?: string; messages?: unknown } }[];
    expect(recorded.find((r) => JSON.stringify(r.body?.messages ?? '').includes(nonce))).toMatchObject({ path: '/v1/chat/completions', body: { model: 'llama3.2:1b' } });
  });

  it.each([
    ['/v1/messages', { model: 'local/llama3.2:1b', max_tokens: 50, messages: [{ role: 'user', content: 'via messages' }] }, 'via messages'],
    ['/v1/responses', { model: 'local/llama3.2:1b', store: false, input: 'via responses' }, 'via responses'],
  ])('serves %s on a local model named first by that request', async (path, body, heard) => {
    const agent = await funded();
    const { res, text } = await send(path, ollamaEnv(), { apiKey: agent.api_key, body });
    expect(res.status, text).toBe(200);
    expect(text).toContain(localAnswer('llama3.2:1b', heard));
  });

  it('serves embeddings on a local embedding model through its /v1/embeddings, free by default', async () => {
    const agent = await register();
    const { res, text } = await send('/v1/embeddings', ollamaEnv(), { apiKey: agent.api_key, body: { model: 'local/nomic-embed-text:latest', input: ['one', 'two'] } });
    expect(res.status, text).toBe(200);
    const body = JSON.parse(text) as { model: string; data: { index: number; embedding: number[] }[]; usage: { prompt_tokens: number } };
    expect(body.model).toBe('local/nomic-embed-text:latest');
    expect(body.data.map((item) => [item.index, item.embedding.length])).toEqual([
      [0, 768],
      [1, 768],
    ]);
    expect(body.usage.prompt_tokens).toBe(2);
    expect(res.headers.get('x-service-cost')).toBe('0.000000');
  });

  it('quotes a chat on a local model at its price before any request named it', async () => {
    const agent = await funded();
    const { res, text } = await send('/v1/quote', ollamaEnv(), { apiKey: agent.api_key, body: { path: '/v1/chat/completions', body: { model: 'local/llama3.2:1b', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] } } });
    expect(res.status, text).toBe(200);
    const quote = JSON.parse(text) as { model: string; worst_case_usd: string };
    expect(quote.model).toBe('local/llama3.2:1b');
    // At most 100 output tokens at $2 per million, plus the prompt at $1.
    expect(Number(quote.worst_case_usd)).toBeGreaterThan(0.0002);
    expect(Number(quote.worst_case_usd)).toBeLessThan(0.0003);
  });

  it('still lists the other models, and answers 404 for local ids, while the server cannot be reached', async () => {
    const down = { ...env, LOCAL_OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', LOCAL_OPENAI_EMBEDDING_MODELS: crypto.randomUUID() } as Env;
    const data = await listed(down);
    expect(data.some((model) => model.id.startsWith('local/'))).toBe(false);
    const agent = await funded();
    const { res } = await send('/v1/chat/completions', down, { apiKey: agent.api_key, body: { model: 'local/llama3.2:1b', messages: [{ role: 'user', content: 'x' }] } });
    expect(res.status).toBe(404);
  });

  it('answers 404 model_not_found for a local id the server does not report', async () => {
    const agent = await funded();
    const { res, text } = await send('/v1/chat/completions', ollamaEnv(), { apiKey: agent.api_key, body: { model: 'local/not-pulled', messages: [{ role: 'user', content: 'x' }] } });
    expect(res.status, text).toBe(404);
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'model_not_found', param: 'model' } });
  });

  it.each([
    ['not JSON', '{oops'],
    ['a negative price', JSON.stringify({ 'llama3.2:1b': { input: -1, output: 0 } })],
    ['an unknown member', JSON.stringify({ 'llama3.2:1b': { prompt: 1 } })],
  ])('refuses a local model with a 503 naming LOCAL_OPENAI_PRICES when it is %s, and still lists the rest', async (_, prices) => {
    const gatewayEnv = ollamaEnv({ LOCAL_OPENAI_PRICES: prices });
    const agent = await funded();
    const { res, text } = await send('/v1/chat/completions', gatewayEnv, { apiKey: agent.api_key, body: { model: 'local/llama3.2:1b', messages: [{ role: 'user', content: 'x' }] } });
    expect(res.status, text).toBe(503);
    expect(JSON.parse(text).error.message).toContain('LOCAL_OPENAI_PRICES');
    const { res: list } = await send('/v1/models', gatewayEnv);
    expect(list.status).toBe(200);
  });
});
