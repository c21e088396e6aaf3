import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localAnswer, OLLAMA_MODELS, startLocalOpenAIUpstream } from '../upstreams/local-openai';
import type { Upstream } from '../upstreams/server';
import { devVarsFromExample, startGateway, type RunningGateway } from './gateway-process';

/**
 * A local OpenAI-compatible server (the Ollama-shaped simulator) as the gateway's only provider,
 * configured by LOCAL_OPENAI_BASE_URL in `.dev.vars` under `npm start`, used with the `openai` SDK;
 * and the simulator itself read by the same SDK, so its shapes are the ones the SDK parses.
 */
const ADMIN_TOKEN = 'local-openai-admin-token-0123456789';
let server: Upstream;
let gateway: RunningGateway;

beforeAll(async () => {
  server = await startLocalOpenAIUpstream({ flavor: 'ollama', models: OLLAMA_MODELS });
  gateway = await startGateway({ devVars: devVarsFromExample({ ADMIN_TOKEN, LOCAL_OPENAI_BASE_URL: `${server.url}/v1` }) });
}, 180_000);

afterAll(async () => {
  await gateway?.stop();
  await server?.stop();
});

async function client(): Promise<OpenAI> {
  const registered = await fetch(`${gateway.url}/agent/register`, { method: 'POST', body: JSON.stringify({ type: 'anonymous' }) });
  const { api_key } = (await registered.json()) as { api_key: string };
  return new OpenAI({ apiKey: api_key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
}

describe('the local simulator, read by the openai SDK', () => {
  // Ollama takes any key ("required but ignored").
  const direct = () => new OpenAI({ apiKey: 'ollama', baseURL: `${server.url}/v1`, maxRetries: 0 });

  it('lists its models, answers a chat whole and streamed, and embeds', async () => {
    const models = [];
    for await (const model of direct().models.list()) models.push(model);
    expect(models.map((model) => [model.id, model.object, model.owned_by])).toEqual([
      ['llama3.2:1b', 'model', 'library'],
      ['nomic-embed-text:latest', 'model', 'library'],
    ]);
    const completion = await direct().chat.completions.create({ model: 'llama3.2:1b', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]!.message.content).toBe(localAnswer('llama3.2:1b', 'hi'));
    let streamed = '';
    for await (const chunk of await direct().chat.completions.create({ model: 'llama3.2:1b', stream: true, messages: [{ role: 'user', content: 'hi' }] })) streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toBe(localAnswer('llama3.2:1b', 'hi'));
    const embedded = await direct().embeddings.create({ model: 'nomic-embed-text:latest', input: 'hi' });
    expect(embedded.data[0]!.embedding).toHaveLength(768);
  });
});

describe('the gateway with LOCAL_OPENAI_BASE_URL as its only provider, through the openai SDK', () => {
  it('lists the local models as local/<id> and no demo model', async () => {
    const ids = [];
    for await (const model of (await client()).models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(['local/llama3.2:1b', 'local/nomic-embed-text:latest']));
    expect(ids).not.toContain('gateway/echo');
  });

  it('answers a chat on a local model, whole and streamed, at no cost by default', async () => {
    const openai = await client();
    const { data, response } = await openai.chat.completions.create({ model: 'local/llama3.2:1b', messages: [{ role: 'user', content: 'Say hello' }] }).withResponse();
    expect(data.choices[0]!.message.content).toBe(localAnswer('llama3.2:1b', 'Say hello'));
    expect(response.headers.get('x-service-provider')).toBe('local_openai');
    expect(response.headers.get('x-service-cost')).toBe('0.000000');
    let streamed = '';
    for await (const chunk of await openai.chat.completions.create({ model: 'local/llama3.2:1b', stream: true, messages: [{ role: 'user', content: 'Say hello' }] })) streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toBe(localAnswer('llama3.2:1b', 'Say hello'));
  });

  it('embeds on a local embedding model', async () => {
    const embedded = await (await client()).embeddings.create({ model: 'local/nomic-embed-text:latest', input: ['a', 'b'] });
    expect(embedded.data.map((item) => item.embedding.length)).toEqual([768, 768]);
  });
});
