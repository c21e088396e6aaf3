import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { DEMO_REQUESTS_PER_MINUTE } from '../../src/products/chat/hold-dispatch';
import { ECHO_PREFIX } from '../../src/providers/gateway/echo';
import { accountStub, register } from './helpers';
import { createOrganization, invite, join } from './org-helpers';

/**
 * The demo model `gateway/echo` (DEMO_MODEL): answered inside the Worker through the same key
 * check, hold, settlement, ledger and lookup as any chat model, at zero cost, in every chat
 * format. The default test env configures no provider, so `auto` serves it there.
 */
const app = createApp();
const withProvider = { ...env, OPENAI_API_KEY: 'sk-demo-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } as Env;

async function send(path: string, apiKey: string | undefined, body: unknown, gatewayEnv: Env = env, method = 'POST') {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`https://gateway.test${path}`, {
      method,
      headers: { ...(apiKey && { Authorization: `Bearer ${apiKey}` }), 'Content-Type': 'application/json' },
      ...(method === 'POST' && { body: JSON.stringify(body) }),
    }),
    gatewayEnv,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, text };
}

const listed = async (gatewayEnv: Env) => (JSON.parse((await send('/v1/models', undefined, undefined, gatewayEnv, 'GET')).text) as { data: { id: string; demo?: boolean; description?: string; pricing: { input: number; output: number } }[] }).data;

/** The last `data:` JSON event of an SSE body. */
const events = (text: string) => text.split('\n').filter((line) => line.startsWith('data: {')).map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);

describe('the demo model gateway/echo', () => {
  it('is listed free and marked as a demo when no chat provider is configured, and absent once one is (auto)', async () => {
    const echo = (await listed(env)).find((model) => model.id === 'gateway/echo');
    expect(echo).toMatchObject({ demo: true, description: expect.stringContaining('demo'), pricing: { input: 0, output: 0 } });
    expect((await listed(withProvider)).some((model) => model.id === 'gateway/echo')).toBe(false);
  });

  it.each([
    ['on', withProvider, true],
    ['off', env, false],
  ] as const)('follows DEMO_MODEL=%s whatever is configured', async (mode, base, served) => {
    const gatewayEnv = { ...base, DEMO_MODEL: mode } as Env;
    expect((await listed(gatewayEnv)).some((model) => model.id === 'gateway/echo')).toBe(served);
    const agent = await register();
    const { res } = await send('/v1/chat/completions', agent.api_key, { model: 'gateway/echo', messages: [{ role: 'user', content: 'hi' }] }, gatewayEnv);
    expect(res.status).toBe(served ? 200 : 404);
  });

  it.each([false, true])('answers a chat completion with the last user message at zero cost, with a ledger row and a lookup (stream: %s)', async (stream) => {
    // An unfunded account: a free model needs no balance.
    const agent = await register();
    const nonce = crypto.randomUUID();
    const { res, text } = await send('/v1/chat/completions', agent.api_key, {
      model: 'gateway/echo',
      stream,
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: `Say ${nonce}` },
      ],
    });
    expect(res.status, text).toBe(200);
    expect(res.headers.get('x-service-provider')).toBe('gateway');
    const requestId = res.headers.get('x-service-request-id')!;
    let answer: string;
    let usage: { prompt_tokens: number; completion_tokens: number };
    if (stream) {
      const all = events(text);
      answer = all.map((event) => ((event.choices as { delta?: { content?: string } }[] | undefined)?.[0]?.delta?.content ?? '')).join('');
      const last = all.at(-1)! as { usage: typeof usage; x_service: { cost_usd: string } };
      usage = last.usage;
      expect(last.x_service.cost_usd).toBe('0.000000');
    } else {
      const body = JSON.parse(text) as { choices: { message: { content: string } }[]; usage: typeof usage };
      answer = body.choices[0]!.message.content;
      usage = body.usage;
      expect(res.headers.get('x-service-cost')).toBe('0.000000');
    }
    expect(answer).toBe(`${ECHO_PREFIX}Say ${nonce}`);
    // Estimated at 4 characters a token, as the gateway estimates elsewhere.
    expect(usage.completion_tokens).toBe(Math.ceil(answer.length / 4));
    expect(usage.prompt_tokens).toBeGreaterThan(0);

    const rows = await accountStub(agent.account_id).ledgerEntries(10);
    expect(rows.find((row) => row.kind === 'charge')).toMatchObject({ amountMicros: 0 });
    const found = await send(`/v1/requests/${requestId}`, agent.api_key, undefined, env, 'GET');
    expect(JSON.parse(found.text)).toMatchObject({ model: 'gateway/echo', provider: 'gateway', status: 'succeeded', cost_usd: '0.000000', streamed: stream, usage: { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens } });
  });

  it.each([false, true])('answers through /v1/messages in Anthropic’s shape (stream: %s)', async (stream) => {
    const agent = await register();
    const { res, text } = await send('/v1/messages', agent.api_key, { model: 'gateway/echo', max_tokens: 200, stream, messages: [{ role: 'user', content: 'hello there' }] });
    expect(res.status, text).toBe(200);
    if (stream) {
      expect(text).toContain('event: message_stop');
      expect(text).toContain('hello');
    } else {
      const body = JSON.parse(text) as { type: string; content: { type: string; text: string }[]; usage: { output_tokens: number } };
      expect(body.type).toBe('message');
      expect(body.content[0]!.text).toBe(`${ECHO_PREFIX}hello there`);
      expect(body.usage.output_tokens).toBeGreaterThan(0);
      expect(res.headers.get('x-service-cost')).toBe('0.000000');
    }
  });

  it.each([false, true])('answers through /v1/responses in the Responses shape (stream: %s)', async (stream) => {
    const agent = await register();
    const { res, text } = await send('/v1/responses', agent.api_key, { model: 'gateway/echo', stream, store: false, input: 'hello responses' });
    expect(res.status, text).toBe(200);
    if (stream) {
      expect(text).toContain('response.completed');
      expect(text).toContain('responses');
    } else {
      const body = JSON.parse(text) as { object: string; output_text?: string; output: { content?: { text?: string }[] }[] };
      expect(body.object).toBe('response');
      expect(JSON.stringify(body.output)).toContain(`${ECHO_PREFIX}hello responses`);
      expect(res.headers.get('x-service-cost')).toBe('0.000000');
    }
  });

  it('cuts the answer at max_tokens and says so', async () => {
    const agent = await register();
    const { res, text } = await send('/v1/chat/completions', agent.api_key, { model: 'gateway/echo', max_tokens: 3, messages: [{ role: 'user', content: 'a long question' }] });
    expect(res.status, text).toBe(200);
    const body = JSON.parse(text) as { choices: { message: { content: string }; finish_reason: string }[] };
    expect(body.choices[0]).toMatchObject({ message: { content: ECHO_PREFIX.slice(0, 12) }, finish_reason: 'length' });
  });

  it(`refuses an account's requests past ${DEMO_REQUESTS_PER_MINUTE} a minute with a 429, and not another account's`, async () => {
    const agent = await register();
    const body = { model: 'gateway/echo', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] };
    for (let i = 0; i < DEMO_REQUESTS_PER_MINUTE; i++) expect((await send('/v1/chat/completions', agent.api_key, body)).res.status).toBe(200);
    const { res, text } = await send('/v1/chat/completions', agent.api_key, body);
    expect(res.status, text).toBe(429);
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'rate_limit_exceeded', type: 'rate_limit_error' } });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await register();
    expect((await send('/v1/chat/completions', other.api_key, body)).res.status).toBe(200);
  });

  it('still checks the key', async () => {
    const { res } = await send('/v1/chat/completions', 'sk-not-a-key', { model: 'gateway/echo', messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(401);
  });
});

describe('the demo model for an organization member', () => {
  it(`bounds each member account to ${DEMO_REQUESTS_PER_MINUTE} requests a minute, counted by the organization`, async () => {
    const org = await createOrganization('demo', '1');
    const member = await register();
    expect((await join(member, await invite(org.organization_id, { auto_approve: true }))).status).toBe(200);
    const body = { model: 'gateway/echo', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] };
    for (let i = 0; i < DEMO_REQUESTS_PER_MINUTE; i++) expect((await send('/v1/chat/completions', member.api_key, body)).res.status).toBe(200);
    const { res, text } = await send('/v1/chat/completions', member.api_key, body);
    expect(res.status, text).toBe(429);
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
  });
});
