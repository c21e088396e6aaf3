import { describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/money';
import { simulatedTokens, simulatedVector } from '../upstreams/embeddings';
import { accountStub, expectError } from './helpers';
import { costOf, decodeBase64, embed, type EmbeddingsAnswer, funded, post, received, upstreams } from './embeddings-helpers';

/**
 * `POST /v1/embeddings` on each provider, through the public API against its simulator
 * (test/upstreams/embeddings.ts): the wire each upstream gets, the vectors in OpenAI's shape as
 * floats and as base64, `dimensions`, and a charge of the reported tokens at the catalog price.
 */

const PROVIDERS = [
  { model: 'openai/text-embedding-3-small', upstream: upstreams.openai, path: '/v1/embeddings', upstreamId: 'text-embedding-3-small', size: 1536, perMTok: 0.02 },
  { model: 'mistral/mistral-embed', upstream: upstreams.mistral, path: '/v1/embeddings', upstreamId: 'mistral-embed', size: 1024, perMTok: 0.1 },
  { model: 'intfloat/multilingual-e5-large-instruct', upstream: upstreams.together, path: '/v1/embeddings', upstreamId: 'intfloat/multilingual-e5-large-instruct', size: 1024, perMTok: 0.02 },
  { model: 'google/gemini-embedding-001', upstream: upstreams.gemini, path: '/v1beta/models/gemini-embedding-001:batchEmbedContents', upstreamId: 'gemini-embedding-001', size: 3072, perMTok: 0.15 },
];

describe('POST /v1/embeddings on each provider', () => {
  it.each(PROVIDERS)('embeds two texts on $model, in input order, charged its tokens at its price', async ({ model, upstream, path, upstreamId, size, perMTok }) => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    const input = [`first ${nonce}`, `second, a little longer ${nonce}`];
    const res = await embed(agent.api_key, { model, input });
    const answer = (await res.json()) as EmbeddingsAnswer;
    expect(res.status, JSON.stringify(answer)).toBe(200);

    const [sent] = await received(upstream, nonce);
    expect(sent?.path).toBe(path);
    if (model.startsWith('google/')) {
      expect(sent?.body).toEqual({ requests: input.map((text) => ({ model: `models/${upstreamId}`, content: { parts: [{ text }] } })) });
    } else {
      expect(sent?.body).toEqual({ model: upstreamId, input, encoding_format: 'float' });
    }

    expect(answer).toMatchObject({ object: 'list', model });
    expect(answer.data.map((item) => [item.object, item.index])).toEqual([['embedding', 0], ['embedding', 1]]);
    answer.data.forEach((item, i) => expect(item.embedding).toEqual(simulatedVector(upstreamId, input[i]!, size)));

    // Gemini reports no tokens: the charge is the gateway's estimate, 4 characters a token.
    const tokens = model.startsWith('google/') ? input.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0) : input.reduce((sum, text) => sum + simulatedTokens(text), 0);
    expect(answer.usage).toEqual({ prompt_tokens: tokens, total_tokens: tokens });
    const charges = (await accountStub(agent.account_id).ledgerEntries(10)).filter((row) => row.kind === 'charge');
    expect(charges.map((row) => -row.amountMicros)).toEqual([costOf(tokens, perMTok)]);
    expect(res.headers.get('x-service-cost')).toBe(formatUsd(costOf(tokens, perMTok)));
    expect(res.headers.get('x-service-credits-remaining')).toBe(formatUsd(1_000_000 - costOf(tokens, perMTok)));
  });

  it.each(PROVIDERS)('answers base64 little-endian float32s on $model', async ({ model, upstream, upstreamId, size }) => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    const res = await embed(agent.api_key, { model, input: `a text ${nonce}`, encoding_format: 'base64' });
    const answer = (await res.json()) as EmbeddingsAnswer;
    expect(res.status, JSON.stringify(answer)).toBe(200);
    const vector = answer.data[0]!.embedding;
    expect(typeof vector).toBe('string');
    expect(decodeBase64(vector as string)).toEqual(simulatedVector(upstreamId, `a text ${nonce}`, size));
    // OpenAI is asked for base64 itself; the others answer floats, which the gateway encodes.
    const [sent] = await received(upstream, nonce);
    if (model.startsWith('openai/')) expect(sent?.body?.encoding_format).toBe('base64');
  });

  it.each([
    ['openai/text-embedding-3-large', upstreams.openai, 256, { dimensions: 256 }],
    ['google/gemini-embedding-001', upstreams.gemini, 768, { outputDimensionality: 768 }],
  ] as const)('sends `dimensions` to %s in its own member and answers vectors of that length', async (model, upstream, dimensions, member) => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    const res = await embed(agent.api_key, { model, input: [nonce], dimensions });
    const answer = (await res.json()) as EmbeddingsAnswer;
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect((answer.data[0]!.embedding as number[]).length).toBe(dimensions);
    const [sent] = await received(upstream, nonce);
    const body = model.startsWith('google/') ? (sent?.body?.requests as Record<string, unknown>[])[0] : sent?.body;
    expect(body).toMatchObject(member);
  });

  it('takes token arrays on OpenAI, and sends the one size Mistral makes without a `dimensions` member', async () => {
    const agent = await funded();
    const tokens = [[1, 2, 3], [4, 5, 6, 7]];
    const res = await embed(agent.api_key, { model: 'openai/text-embedding-3-small', input: tokens });
    const answer = (await res.json()) as EmbeddingsAnswer;
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(answer.usage.prompt_tokens).toBe(7);
    expect(answer.data[1]!.embedding).toEqual(simulatedVector('text-embedding-3-small', tokens[1]!, 1536));

    const nonce = crypto.randomUUID();
    const mistral = await embed(agent.api_key, { model: 'mistral/mistral-embed', input: nonce, dimensions: 1024 });
    expect(mistral.status, await mistral.clone().text()).toBe(200);
    expect((await received(upstreams.mistral, nonce))[0]?.body).not.toHaveProperty('dimensions');
  });
});

describe('the create_embedding MCP tool', () => {
  it('runs POST /v1/embeddings with the same key and bills it the same way', async () => {
    const agent = await funded();
    const input = `recall ${crypto.randomUUID()}`;
    const rpc = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_embedding', arguments: { model: 'mistral/mistral-embed', input } } };
    const res = await post('/mcp', agent.api_key, rpc, { accept: 'application/json, text/event-stream' });
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as { result: { isError?: boolean; structuredContent: EmbeddingsAnswer; _meta?: Record<string, unknown> } };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.data[0]!.embedding).toEqual(simulatedVector('mistral-embed', input, 1024));
    const charged = costOf(simulatedTokens(input), 0.1);
    expect((await accountStub(agent.account_id).ledgerEntries(10)).filter((row) => row.kind === 'charge').map((row) => -row.amountMicros)).toEqual([charged]);
    expect(result._meta?.['x-service/cost_usd']).toBe(formatUsd(charged));
  });
});

describe('POST /v1/embeddings refusals, before any money moves', () => {
  it.each([
    ['an empty string', { model: 'openai/text-embedding-3-small', input: '' }, 'input'],
    ['an empty list', { model: 'openai/text-embedding-3-small', input: [] }, 'input'],
    ['more than 2,048 inputs', { model: 'openai/text-embedding-3-small', input: Array.from({ length: 2049 }, () => 'x') }, 'input'],
    ['an input over the model limit', { model: 'intfloat/multilingual-e5-large-instruct', input: 'word '.repeat(600) }, 'input'],
    ['a token array over the model limit', { model: 'openai/text-embedding-3-small', input: Array.from({ length: 8193 }, () => 1) }, 'input'],
    ['token arrays to a text-only model', { model: 'mistral/mistral-embed', input: [[1, 2, 3]] }, 'input'],
    ['a size the model does not make', { model: 'openai/text-embedding-3-small', input: 'hi', dimensions: 3072 }, 'dimensions'],
    ['any other size on a fixed-size model', { model: 'mistral/mistral-embed', input: 'hi', dimensions: 512 }, 'dimensions'],
    ['an unknown encoding', { model: 'openai/text-embedding-3-small', input: 'hi', encoding_format: 'int8' }, 'encoding_format'],
    ['a chat model', { model: 'openai/gpt-4o-mini', input: 'hi' }, 'model'],
  ])('refuses %s with 400 naming the field, and charges nothing', async (_, body, param) => {
    const agent = await funded();
    await expectError(await embed(agent.api_key, body), 400, 'invalid_request', 'invalid_request_error', param);
    expect((await accountStub(agent.account_id).ledgerEntries(10)).filter((row) => row.kind === 'charge' || row.kind === 'hold')).toEqual([]);
  });
});
