import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { adminCredit, expectError, register } from './helpers';

/**
 * The key as Anthropic clients send it (contract, "Agent clients": `@anthropic-ai/sdk` and
 * `@ai-sdk/anthropic` send `x-api-key`): every `/v1` route takes it beside `Authorization: Bearer`,
 * and so do `/mcp` and `/x402/v1` (which serves a request with a key as its `/v1` route). Two
 * headers with different keys are a 401. (`@anthropic-ai/sdk` is not in node_modules: the header is
 * sent as that client sends it.)
 */
const app = createApp();
const gateway = {
  ...env,
  OPENAI_API_KEY: 'sk-x-api-key',
  OPENAI_BASE_URL: `${inject('chatUpstreamUrl')}/v1`,
  // x402 on: a request without a key at /x402/v1 would get a 402 challenge.
  BASE_RPC_URL: 'http://127.0.0.1:9',
  USDC_DEPOSIT_ADDRESS: '0x1111111111111111111111111111111111111111',
  X402_FACILITATOR_URL: 'http://127.0.0.1:9',
} as Env;

async function send(path: string, headers: Record<string, string>, body?: unknown) {
  const ctx = createExecutionContext();
  const init: RequestInit = body === undefined ? { headers } : { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
  const res = await app.fetch(new Request(`https://gateway.test${path}`, init), gateway, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function funded() {
  const agent = await register();
  expect((await adminCredit(agent.account_id, '1')).status).toBe(200);
  return agent;
}

const chatBody = { model: 'openai/gpt-4o-mini', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] };

describe('x-api-key', () => {
  it.each(['/v1/chat/completions', '/x402/v1/chat/completions'])('serves and charges %s with the key in x-api-key alone', async (path) => {
    const agent = await funded();
    const res = await send(path, { 'x-api-key': agent.api_key, 'anthropic-version': '2023-06-01' }, chatBody);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(Number(res.headers.get('x-service-cost'))).toBeGreaterThan(0);
  });

  it('takes x-api-key on a GET route: the account reads its own request lookup (404 for an unknown id, not 401)', async () => {
    const agent = await funded();
    await expectError(await send('/v1/requests/req_unknown', { 'x-api-key': agent.api_key }), 404, 'not_found', 'invalid_request_error', 'request_id');
  });

  it('takes x-api-key on /mcp', async () => {
    const agent = await funded();
    const res = await send('/mcp', { 'x-api-key': agent.api_key, accept: 'application/json, text/event-stream' }, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
  });

  it('accepts both headers when they carry the same key', async () => {
    const agent = await funded();
    const res = await send('/v1/chat/completions', { 'x-api-key': agent.api_key, Authorization: `Bearer ${agent.api_key}` }, chatBody);
    expect(res.status).toBe(200);
    await res.body?.cancel();
  });

  it('answers 401 when the two headers carry different keys, and charges neither account', async () => {
    const [first, second] = [await funded(), await funded()];
    const res = await send('/v1/chat/completions', { 'x-api-key': first.api_key, Authorization: `Bearer ${second.api_key}` }, chatBody);
    const body = await expectError(res, 401, 'invalid_api_key', 'authentication_error');
    expect(body.error.message).toContain('x-api-key');
  });

  it.each([
    ['an unknown key', 'ak-' + 'x'.repeat(45), 'invalid_api_key'],
    ['an empty header', ' ', 'missing_api_key'],
  ])('answers 401 to %s in x-api-key', async (_name, key, code) => {
    await expectError(await send('/v1/chat/completions', { 'x-api-key': key }, chatBody), 401, code, 'authentication_error');
  });

  it('names both headers when neither is sent', async () => {
    const body = await expectError(await send('/v1/chat/completions', {}, chatBody), 401, 'missing_api_key', 'authentication_error');
    expect(body.error.message).toContain('x-api-key');
  });
});
