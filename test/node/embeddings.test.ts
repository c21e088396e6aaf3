import { createOpenAI } from '@ai-sdk/openai';
import { OpenAIEmbeddings } from '@langchain/openai';
import { embed, embedMany } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedTokens, simulatedVector, startGeminiEmbeddingsUpstream, startOpenAIEmbeddingsUpstream } from '../upstreams/embeddings';
import type { Upstream } from '../upstreams/server';
import { fundedAgent } from './agents';
import { startGateway, type RunningGateway } from './gateway-process';

/**
 * `POST /v1/embeddings` as the official clients meet it: the gateway under `npm start` with
 * `.dev.vars`, OpenAI's and Gemini's embeddings APIs played locally. The balance drops by the
 * stated cost, the catalog price times the reported tokens.
 */

const ADMIN = 'embeddings-admin-token-0123456789';
const OPENAI_KEY = 'sk-embeddings-e2e';
const GEMINI_KEY = 'gemini-embeddings-e2e';
const SMALL = 'openai/text-embedding-3-small';
let openaiUpstream: Upstream;
let geminiUpstream: Upstream;
let gateway: RunningGateway;

beforeAll(async () => {
  [openaiUpstream, geminiUpstream] = await Promise.all([
    startOpenAIEmbeddingsUpstream({ name: 'openai', apiKey: OPENAI_KEY, models: { 'text-embedding-3-small': 1536, 'text-embedding-3-large': 3072 } }),
    startGeminiEmbeddingsUpstream(GEMINI_KEY),
  ]);
  gateway = await startGateway({
    ADMIN_TOKEN: ADMIN,
    OPENAI_API_KEY: OPENAI_KEY,
    OPENAI_BASE_URL: `${openaiUpstream.url}/v1`,
    GEMINI_API_KEY: GEMINI_KEY,
    GEMINI_BASE_URL: `${geminiUpstream.url}/v1beta`,
  });
});
afterAll(async () => {
  await gateway?.stop();
  await openaiUpstream?.stop();
  await geminiUpstream?.stop();
});

const agent = () => fundedAgent(gateway.url, ADMIN, '1');
/** text-embedding-3-small's $0.02 per million tokens, in micro-dollars rounded half up. */
const smallMicros = (tokens: number) => Math.floor((tokens * 20_000 + 500_000) / 1_000_000);
const micros = (usd: string) => Math.round(Number(usd) * 1e6);
const tokensOf = (texts: string[]) => texts.reduce((sum, text) => sum + simulatedTokens(text), 0);
const float32 = (model: string, text: string, size = 1536) => simulatedVector(model, text, size);

describe('the OpenAI embeddings simulator', () => {
  it('speaks the wire the openai SDK reads: floats, base64 and usage, and its errors', async () => {
    const client = new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${openaiUpstream.url}/v1`, maxRetries: 0 });
    const floats = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'bb'], encoding_format: 'float' });
    expect(floats.data.map((item) => item.embedding)).toEqual(['a', 'bb'].map((text) => float32('text-embedding-3-small', text)));
    expect(floats.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
    const decoded = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'a', dimensions: 8 });
    expect(Array.from(decoded.data[0]!.embedding)).toEqual(float32('text-embedding-3-small', 'a', 8));
    await expect(client.embeddings.create({ model: 'text-embedding-3-small', input: 'a', dimensions: 4096 })).rejects.toMatchObject({ status: 400, param: 'dimensions' });
  });
});

describe('the openai SDK', () => {
  it('embeddings.create with float vectors: the balance drops by the stated cost', async () => {
    const { apiKey, account } = await agent();
    const client = new OpenAI({ apiKey, baseURL: `${gateway.url}/v1` });
    const input = ['the first note', 'the second, longer note'];
    const { data, response } = await client.embeddings.create({ model: SMALL, input, encoding_format: 'float' }).withResponse();
    expect(data.data.map((item) => item.embedding)).toEqual(input.map((text) => float32('text-embedding-3-small', text)));
    expect(data.usage.prompt_tokens).toBe(tokensOf(input));
    const cost = micros(response.headers.get('x-service-cost')!);
    expect(cost).toBe(smallMicros(tokensOf(input)));
    expect(micros((await account()).balance_usd)).toBe(1_000_000 - cost);
  });

  it('embeddings.create as the SDK asks by default (base64, decoded by the SDK) and with base64 asked outright', async () => {
    const { apiKey } = await agent();
    const client = new OpenAI({ apiKey, baseURL: `${gateway.url}/v1` });
    const decoded = await client.embeddings.create({ model: 'openai/text-embedding-3-large', input: 'remember this', dimensions: 64 });
    expect(Array.from(decoded.data[0]!.embedding)).toEqual(float32('text-embedding-3-large', 'remember this', 64));

    const raw = await client.embeddings.create({ model: SMALL, input: 'remember this', encoding_format: 'base64' });
    const encoded = raw.data[0]!.embedding as unknown as string;
    expect(typeof encoded).toBe('string');
    expect([...new Float32Array(Buffer.from(encoded, 'base64').buffer.slice(0))]).toEqual(float32('text-embedding-3-small', 'remember this'));
  });
});

describe("the AI SDK's embed and embedMany", () => {
  it('embeds one value and many, on OpenAI and on Gemini (translated), with the usage the gateway billed', async () => {
    const { apiKey, account } = await agent();
    const provider = createOpenAI({ apiKey, baseURL: `${gateway.url}/v1` });
    const one = await embed({ model: provider.embedding(SMALL), value: 'sunny day at the beach' });
    expect(one.embedding).toEqual(float32('text-embedding-3-small', 'sunny day at the beach'));
    expect(one.usage.tokens).toBe(tokensOf(['sunny day at the beach']));

    const values = ['rainy afternoon', 'snow in the mountains', 'wind on the coast'];
    const many = await embedMany({ model: provider.embedding('google/gemini-embedding-001'), values });
    expect(many.embeddings).toEqual(values.map((text) => simulatedVector('gemini-embedding-001', text, 3072)));
    // Gemini reports no tokens: the gateway bills its estimate, 4 characters a token, at $0.15 per million.
    const estimate = values.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
    expect(many.usage.tokens).toBe(estimate);
    const charged = smallMicros(one.usage.tokens) + Math.floor((estimate * 150_000 + 500_000) / 1_000_000);
    expect(micros((await account()).balance_usd)).toBe(1_000_000 - charged);
  });
});

describe("LangChain's OpenAIEmbeddings", () => {
  it('embedQuery and embedDocuments through the gateway', async () => {
    const { apiKey } = await agent();
    const embeddings = new OpenAIEmbeddings({ model: SMALL, apiKey, configuration: { baseURL: `${gateway.url}/v1` } });
    expect(await embeddings.embedQuery('where did I park')).toEqual(float32('text-embedding-3-small', 'where did I park'));
    const documents = ['level 2, row C', 'next to the lift'];
    expect(await embeddings.embedDocuments(documents)).toEqual(documents.map((text) => float32('text-embedding-3-small', text)));
  });
});
