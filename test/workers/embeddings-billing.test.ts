import { describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/money';
import { ABSURD_USAGE, ERROR_500, simulatedTokens, simulatedVector } from '../upstreams/embeddings';
import { accountStub, bearer, call, expectError } from './helpers';
import { createOrganization, eventually, invite, ledger, send } from './org-helpers';
import { costOf, embed, type EmbeddingsAnswer, embeddingsEnv, funded, post, received, upstreams } from './embeddings-helpers';

/**
 * The money side of `POST /v1/embeddings`: the hold is the D33 bound (each text's UTF-8 bytes plus
 * 8, each token array's length plus 8, at most the model's input limit) and the charge never
 * passes it; a batch over a provider's limit is split and summed; a failed upstream is free; the
 * 402, the quote, the request lookup and a sub-key's route class.
 */

const SMALL = 'openai/text-embedding-3-small';
const chargesOf = async (accountId: string) => (await accountStub(accountId).ledgerEntries(20)).filter((row) => row.kind === 'charge').map((row) => -row.amountMicros);

describe('POST /v1/embeddings billing', () => {
  it('charges no more than the bound it held when the upstream reports absurd usage', async () => {
    const agent = await funded();
    const input = `clamp me ${ABSURD_USAGE} ${crypto.randomUUID()}`;
    const res = await embed(agent.api_key, { model: SMALL, input });
    const answer = (await res.json()) as EmbeddingsAnswer;
    expect(res.status, JSON.stringify(answer)).toBe(200);
    // The simulator reports 50,000,000 tokens; the bound is the input's bytes plus 8.
    const bound = new TextEncoder().encode(input).length + 8;
    expect(answer.usage.prompt_tokens).toBe(bound);
    expect(await chargesOf(agent.account_id)).toEqual([costOf(bound, 0.02)]);
    expect(res.headers.get('x-service-cost')).toBe(formatUsd(costOf(bound, 0.02)));
  });

  it("splits a batch over Gemini's 100 inputs a request, in order, and bills the sum", async () => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    const input = Array.from({ length: 150 }, (_, i) => `text ${i} ${nonce}`);
    const res = await embed(agent.api_key, { model: 'google/gemini-embedding-001', input, dimensions: 128 });
    const answer = (await res.json()) as EmbeddingsAnswer;
    expect(res.status, JSON.stringify(answer).slice(0, 500)).toBe(200);
    const sent = await received(upstreams.gemini, nonce);
    expect(sent.map((request) => (request.body?.requests as unknown[]).length).sort((a, b) => b - a)).toEqual([100, 50]);
    expect(answer.data.map((item) => item.index)).toEqual(input.map((_, i) => i));
    answer.data.forEach((item, i) => expect(item.embedding).toEqual(simulatedVector('gemini-embedding-001', input[i]!, 128)));
    const tokens = input.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
    expect(answer.usage.prompt_tokens).toBe(tokens);
    expect(await chargesOf(agent.account_id)).toEqual([costOf(tokens, 0.15)]);
  });

  it("splits a batch over OpenAI's 300,000 tokens a request and bills the reported tokens summed", async () => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    // 40 inputs of 8,000 bytes: a bound of 320,320 tokens, over OpenAI's per-request limit.
    const input = Array.from({ length: 40 }, (_, i) => `${i} ${nonce} `.padEnd(8000, 'x'));
    const res = await embed(agent.api_key, { model: SMALL, input, encoding_format: 'base64' });
    const answer = (await res.json()) as EmbeddingsAnswer;
    expect(res.status).toBe(200);
    expect((await received(upstreams.openai, nonce)).map((request) => (request.body?.input as unknown[]).length).sort((a, b) => b - a)).toEqual([37, 3]);
    expect(answer.data).toHaveLength(40);
    const tokens = input.reduce((sum, text) => sum + simulatedTokens(text), 0);
    expect(answer.usage.prompt_tokens).toBe(tokens);
    expect(await chargesOf(agent.account_id)).toEqual([costOf(tokens, 0.02)]);
  });

  it("splits a batch over Mistral's 16,384 tokens a request", async () => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    // 12 inputs of 4,000 bytes: a bound of 48,096 tokens, so 4 per part (16,032); the simulator counts 1,000 each.
    const input = Array.from({ length: 12 }, (_, i) => `${i} ${nonce} `.padEnd(4000, 'y'));
    const res = await embed(agent.api_key, { model: 'mistral/mistral-embed', input });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await received(upstreams.mistral, nonce)).map((request) => (request.body?.input as unknown[]).length)).toEqual([4, 4, 4]);
    expect(await chargesOf(agent.account_id)).toEqual([costOf(12 * 1000, 0.1)]);
  });

  it('releases the hold and charges nothing when the upstream fails', async () => {
    const agent = await funded();
    const res = await embed(agent.api_key, { model: SMALL, input: [`fine ${crypto.randomUUID()}`, ERROR_500] });
    expect(res.status).toBe(502);
    expect(await chargesOf(agent.account_id)).toEqual([]);
    const lookup = await call(`/v1/requests/${res.headers.get('x-service-request-id')}`, bearer(agent.api_key));
    expect(await lookup.json()).toMatchObject({ path: '/v1/embeddings', status: 'failed', cost_usd: formatUsd(0) });
  });

  it('refuses an empty balance with 402 and error.funding, sending nothing upstream, even for an input that costs under a micro-dollar', async () => {
    const agent = await funded('0');
    const sentBefore = (await received(upstreams.openai, '')).length;
    // 2 bytes + 8 = 10 tokens at $0.02 per million: 0.2 micro-dollars, held as 1.
    const res = await embed(agent.api_key, { model: SMALL, input: 'hi' });
    const body = await expectError(res, 402, 'insufficient_credits', 'insufficient_credits_error');
    expect((body.error as { funding?: { fund_url: string } }).funding?.fund_url).toBe(agent.fund_url);
    expect((await received(upstreams.openai, '')).length).toBe(sentBefore);
  });

  it('shows the tokens and the cost in the request lookup', async () => {
    const agent = await funded();
    const res = await embed(agent.api_key, { model: 'mistral/mistral-embed', input: ['one', 'two', 'three'] });
    expect(res.status).toBe(200);
    const found = await call(`/v1/requests/${res.headers.get('x-service-request-id')}`, bearer(agent.api_key));
    expect(await found.json()).toMatchObject({
      path: '/v1/embeddings',
      model: 'mistral/mistral-embed',
      provider: 'mistral',
      status: 'succeeded',
      streamed: false,
      cost_usd: res.headers.get('x-service-cost'),
      // The simulator's tokens: a quarter of the bytes, rounded up (1 + 1 + 2).
      usage: { prompt_tokens: 4, inputs: 3 },
    });
  });

  it('quotes the bound as the worst case and the 4-characters-a-token estimate, holding nothing', async () => {
    const agent = await funded();
    const input = ['a'.repeat(4000), 'b'.repeat(4000)];
    const res = await post('/v1/quote', agent.api_key, { path: '/v1/embeddings', body: { model: 'openai/text-embedding-3-large', input } });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({
      path: '/v1/embeddings',
      model: 'openai/text-embedding-3-large',
      worst_case_usd: formatUsd(costOf(2 * 4008, 0.13)),
      estimated_usd: formatUsd(costOf(2 * 1000, 0.13)),
      affordable: true,
    });
    expect(await chargesOf(agent.account_id)).toEqual([]);
    const refused = await post('/v1/quote', agent.api_key, { path: '/v1/embeddings', body: { model: SMALL, input: '' } });
    await expectError(refused, 400, 'invalid_request', 'invalid_request_error', 'input');
  });

  it('serves a sub-key limited to the embeddings route class, and refuses one limited to chat', async () => {
    const agent = await funded();
    const mint = async (allowed_routes: string[]) => {
      const res = await post('/agent/keys', agent.api_key, { name: `embeds ${allowed_routes}`, allowed_routes });
      expect(res.status, await res.clone().text()).toBe(201);
      return ((await res.json()) as { api_key: string }).api_key;
    };
    const embedder = await mint(['embeddings']);
    expect((await embed(embedder, { model: SMALL, input: 'allowed' })).status).toBe(200);
    const chatter = await mint(['chat']);
    await expectError(await embed(chatter, { model: SMALL, input: 'not allowed' }), 403, 'guardrail_blocked', 'authorization_error');
  });

  it('challenges a keyless request at /x402/v1/embeddings for the bound, and refuses a bad body there with 400 naming input', async () => {
    const x402 = { ...embeddingsEnv, BASE_RPC_URL: 'http://127.0.0.1:9', USDC_DEPOSIT_ADDRESS: '0x1111111111111111111111111111111111111111', X402_FACILITATOR_URL: 'http://127.0.0.1:9' } as Env;
    const input = 'x'.repeat(1000);
    const res = await post('/x402/v1/embeddings', null, { model: 'openai/text-embedding-3-large', input }, {}, x402);
    expect(res.status).toBe(402);
    expect(res.headers.get('payment-required')).toBeTruthy();
    const { error } = (await res.json()) as { error: { code: string; funding: { required_usd: string } } };
    expect(error.code).toBe('insufficient_credits');
    expect(error.funding.required_usd).toBe(formatUsd(costOf(1008, 0.13)));
    const bad = await post('/x402/v1/embeddings', null, { model: 'openai/text-embedding-3-large', input: [] }, {}, x402);
    await expectError(bad, 400, 'invalid_request', 'invalid_request_error', 'input');
  });

  it("charges an organization member's embeddings to the organization, its own balance untouched", async () => {
    const org = await createOrganization('memory', '5');
    const member = await funded();
    expect((await send('/agent/org/join', member.api_key, { invite_code: await invite(org.organization_id, { auto_approve: true }) })).status).toBe(200);
    const res = await embed(member.api_key, { model: SMALL, input: ['a memory', 'another memory'] });
    expect(res.status, await res.clone().text()).toBe(200);
    const cost = costOf(simulatedTokens('a memory') + simulatedTokens('another memory'), 0.02);
    expect(res.headers.get('x-service-cost')).toBe(formatUsd(cost));
    await eventually(async () => (await ledger(org.organization_id)).filter((row) => row.kind === 'charge').map((row) => row.amount_usd), [formatUsd(-cost)]);
    expect(await chargesOf(member.account_id)).toEqual([]);
  });
});
