import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { accountStub, adminCredit, register } from './helpers';

/**
 * Upstreams that stall or lie (issue 35): one silent after its headers, one that hangs before
 * them, one that sends a line with no end. Each request ends well within the simulator's 10 s of
 * silence, cancels the upstream, and charges nothing, since nothing of the answer reached the
 * client; the same holds for a client that leaves while its upstream is silent.
 */
const chatUrl = inject('chatUpstreamUrl');
const app = createApp();
const IDLE_MS = 300;
const upstreamEnv = { ...env, OPENAI_API_KEY: 'sk-faults', OPENAI_BASE_URL: `${chatUrl}/v1` } as Env;
/** Only the idle bound is set: it also bounds the wait for headers. */
const shortIdle = { ...upstreamEnv, UPSTREAM_IDLE_TIMEOUT_MS: String(IDLE_MS) } as Env;

interface Sent {
  res: Response;
  ctx: ExecutionContext;
  ms: number;
  nonce: string;
}

/** A chat request with `tag` (the simulator's scenario) and a nonce that finds it in the simulator's record; no `max_tokens`, so its hold is the balance. */
async function chat(apiKey: string, tag: string, options: { stream: boolean; env: Env; signal?: AbortSignal }): Promise<Sent> {
  const ctx = createExecutionContext();
  const nonce = crypto.randomUUID();
  const started = Date.now();
  const res = await app.fetch(
    new Request('https://gateway.test/v1/chat/completions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', stream: options.stream, messages: [{ role: 'user', content: `${tag} ${nonce}` }] }),
      signal: options.signal,
    }),
    options.env,
    ctx,
  );
  return { res, ctx, ms: Date.now() - started, nonce };
}

interface Recorded {
  body?: { messages?: { content?: unknown }[] };
  abortedBeforeEnd?: true;
}

/** What the simulator recorded of the request with `nonce`, once `ready` holds of it (polled for up to 5 s). */
async function upstreamSaw(nonce: string, ready: (request: Recorded) => boolean): Promise<Recorded | undefined> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const recorded = (await (await fetch(`${chatUrl}/__recorded`)).json()) as Recorded[];
    const request = recorded.find((r) => JSON.stringify(r.body?.messages ?? []).includes(nonce));
    if (request && ready(request)) return request;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

async function funded() {
  const agent = await register();
  expect((await adminCredit(agent.account_id, '1.00')).status).toBe(200);
  return agent;
}

/** Nothing charged, nothing held: the balance as credited. */
async function expectUncharged(accountId: string) {
  const stub = accountStub(accountId);
  expect((await stub.ledgerEntries(10)).filter((row) => row.kind === 'charge')).toEqual([]);
  expect(await stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000, heldMicros: 0 });
}

/** The stream's last two frames: the error frame, then `[DONE]`. */
function streamError(text: string): { error: { code: string; message: string } } {
  const frames = text.split('\n\n').filter(Boolean);
  expect(frames.at(-1)).toBe('data: [DONE]');
  return JSON.parse(frames.at(-2)!.slice('data: '.length));
}

describe('an upstream that stalls', () => {
  it('answers 502 within the idle timeout when the upstream goes silent after its headers, and charges nothing', { timeout: 20_000 }, async () => {
    const agent = await funded();
    const { res, ctx, ms, nonce } = await chat(agent.api_key, '[silent]', { stream: false, env: shortIdle });
    const body = (await res.json()) as { error: { code: string; message: string } };
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(502);
    expect(body.error).toMatchObject({ code: 'provider_error', message: expect.stringContaining('sent nothing for 300 ms') });
    expect(ms).toBeLessThan(5_000);
    expect(await upstreamSaw(nonce, (r) => r.abortedBeforeEnd === true)).toBeDefined();
    await expectUncharged(agent.account_id);
  });

  it('ends a stream whose upstream goes silent with an error frame and [DONE] within the idle timeout, and charges nothing', { timeout: 20_000 }, async () => {
    const agent = await funded();
    const started = Date.now();
    const { res, ctx, nonce } = await chat(agent.api_key, '[silent]', { stream: true, env: shortIdle });
    const text = await res.text();
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    expect(streamError(text).error).toMatchObject({ code: 'provider_error', message: expect.stringContaining('sent nothing for 300 ms') });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await upstreamSaw(nonce, (r) => r.abortedBeforeEnd === true)).toBeDefined();
    await expectUncharged(agent.account_id);
  });

  it.each([
    [true, 'the idle bound', shortIdle],
    [false, 'UPSTREAM_TIMEOUT_MS', { ...shortIdle, UPSTREAM_TIMEOUT_MS: String(IDLE_MS) } as Env],
  ])('answers 502 within the headers bound when the upstream hangs before its headers, and charges nothing (stream: %s, bound: %s)', { timeout: 20_000 }, async (stream, _, target) => {
    const agent = await funded();
    const { res, ctx, ms, nonce } = await chat(agent.api_key, '[hang]', { stream, env: target });
    const body = (await res.json()) as { error: { code: string; message: string } };
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(502);
    expect(body.error.code).toBe('provider_error');
    expect(ms).toBeLessThan(5_000);
    expect(await upstreamSaw(nonce, (r) => r.abortedBeforeEnd === true)).toBeDefined();
    await expectUncharged(agent.account_id);
  });

  it('waits longer than the idle bound for a non-streamed answer, whose headers come only once it is generated', { timeout: 20_000 }, async () => {
    const agent = await funded();
    const { res, ctx } = await chat(agent.api_key, '[hang]', { stream: false, env: shortIdle });
    const text = await res.text();
    await waitOnExecutionContext(ctx);
    expect(res.status, text).toBe(200);
    expect(res.headers.get('x-service-cost')).not.toBeNull();
  });

  it('ends a stream whose upstream sends a 16 MiB line at the 4 MiB cap, and charges nothing', { timeout: 20_000 }, async () => {
    const agent = await funded();
    const { res, ctx, nonce } = await chat(agent.api_key, '[huge-line]', { stream: true, env: upstreamEnv });
    const text = await res.text();
    await waitOnExecutionContext(ctx);
    expect(streamError(text).error).toMatchObject({ code: 'provider_error', message: expect.stringContaining('longer than 4 MiB') });
    expect(await upstreamSaw(nonce, (r) => r.abortedBeforeEnd === true)).toBeDefined();
    await expectUncharged(agent.account_id);
  });
});

const LEAVES: [string, string, boolean][] = [
  ['after its headers', '[silent]', false],
  ['after its headers', '[silent]', true],
  ['before its headers', '[hang]', false],
  ['before its headers', '[hang]', true],
];

describe('a client that leaves while its upstream is silent', () => {
  it.each(LEAVES)('cancels an upstream silent %s, releases the hold and charges nothing (%s, stream: %s)', { timeout: 30_000 }, async (_, tag, stream) => {
    const agent = await funded();
    const client = new AbortController();
    // The default timeouts (60 s): only the client's leaving can end this request early.
    const nonce = crypto.randomUUID();
    const sending = chat(agent.api_key, `${tag} ${nonce}`, { stream, env: upstreamEnv, signal: client.signal });
    // The upstream has the request and is silent: the client hangs up.
    expect(await upstreamSaw(nonce, () => true)).toBeDefined();
    client.abort();
    const { ctx } = await sending;
    await waitOnExecutionContext(ctx);
    expect(await upstreamSaw(nonce, (r) => r.abortedBeforeEnd === true)).toBeDefined();
    await expectUncharged(agent.account_id);
  });
});
