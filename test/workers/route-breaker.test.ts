import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { REFRESH_MS } from '../../src/products/chat/health/route-health';
import { anthropicUrl, chatUrl, funded, received, routingEnv, send } from './routing-helpers';

/**
 * A breaker per route (issue 39, D34): after N failures of the kinds that fail over within the
 * window, a route is skipped for the cool-down (or the upstream's Retry-After), then one probe
 * decides. The shared runtime runs with the breaker off (vitest.config.mts), so other files'
 * failing routes record nothing and consult nothing; these requests pass an env that turns it on
 * (2 failures, 1 s cool-down: real time, no clock mocked), and each test fails a route (an OpenAI
 * or Claude model) no other test fails, while the fallbacks only ever answer, so one test's
 * breaker never reaches another's.
 */
const breakerEnv = (extra: Record<string, string> = {}) =>
  ({ ...routingEnv, ROUTE_BREAKER_FAILURES: '2', ROUTE_BREAKER_WINDOW_MS: '60000', ROUTE_BREAKER_COOLDOWN_MS: '1000', ROUTE_BREAKER_MAX_COOLDOWN_MS: '2000', ...extra }) as Env;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A request for an OpenAI model with Claude Haiku (Anthropic, healthy) as its fallback, tagged
 * `tag` and a nonce: the provider that served, and the simulators the nonce reached, in order.
 */
async function ask(apiKey: string, model: string, tag = '', env = breakerEnv(), fallback: string[] = ['anthropic/claude-haiku-4-5']) {
  const nonce = crypto.randomUUID();
  const res = await send('/v1/chat/completions', apiKey, { model, models: fallback, messages: [{ role: 'user', content: `${tag} ${nonce}` }], max_tokens: 20 }, { env });
  const calls = [...((await received(chatUrl, nonce)).length > 0 ? ['openai'] : []), ...((await received(anthropicUrl, nonce)).length > 0 ? ['anthropic'] : [])];
  return { status: res.status, served: res.headers.get('X-Service-Provider'), calls };
}

const FELL_OVER = { status: 200, served: 'anthropic', calls: ['openai', 'anthropic'] };
/** OpenAI's route skipped: not called at all. */
const SKIPPED = { status: 200, served: 'anthropic', calls: ['anthropic'] };
const BY_OPENAI = { status: 200, served: 'openai', calls: ['openai'] };

/** Fails `model`'s OpenAI route `times` times (each request served by the fallback). */
async function failRoute(apiKey: string, model: string, times: number, tag = '[fail-openai]', env = breakerEnv()) {
  for (let i = 0; i < times; i++) expect(await ask(apiKey, model, tag, env)).toEqual(FELL_OVER);
}

/** A Claude model with GPT-4o mini as its fallback: the answer's status and what served. */
async function viaClaude(apiKey: string, model: string, tag: string): Promise<string> {
  const body = { model, models: ['openai/gpt-4o-mini'], messages: [{ role: 'user', content: `${tag} ${crypto.randomUUID()}` }], max_tokens: 20 };
  const res = await send('/v1/chat/completions', apiKey, body, { env: breakerEnv() });
  return `${res.status} ${res.headers.get('X-Service-Provider')}`;
}

/** `/v1/models`'s status of `model`'s route at `provider`. */
async function endpointStatus(model: string, provider: string): Promise<string | undefined> {
  const res = await send('/v1/models', '', undefined, { method: 'GET', env: breakerEnv() });
  const { data } = (await res.json()) as { data: { id: string; endpoints?: { provider: string; status: string }[] }[] };
  return data.find((entry) => entry.id === model)?.endpoints?.find((endpoint) => endpoint.provider === provider)?.status;
}

describe('a route breaker', () => {
  it('opens after N failures in the window: the next requests go straight to the fallback, without calling the route', async () => {
    const agent = await funded();
    await failRoute(agent.api_key, 'openai/gpt-4.1', 2);
    expect(await ask(agent.api_key, 'openai/gpt-4.1', '[fail-openai]')).toEqual(SKIPPED);
    // A request that OpenAI would serve skips it too while the breaker is open.
    expect(await ask(agent.api_key, 'openai/gpt-4.1')).toEqual(SKIPPED);
  });

  it('counts only failures within the window', async () => {
    const agent = await funded();
    const env = breakerEnv({ ROUTE_BREAKER_WINDOW_MS: '500' });
    await failRoute(agent.api_key, 'openai/o3', 1, '[fail-openai]', env);
    await sleep(600);
    // The first failure aged out of the window: this one is the only one in it.
    await failRoute(agent.api_key, 'openai/o3', 1, '[fail-openai]', env);
    expect(await endpointStatus('openai/o3', 'openai')).toBe('degraded');
    // A second one within it opens the breaker.
    await failRoute(agent.api_key, 'openai/o3', 1, '[fail-openai]', env);
    expect(await ask(agent.api_key, 'openai/o3', '', env)).toEqual(SKIPPED);
  });

  it('counts failures in a row: a success between them starts the count again', async () => {
    const agent = await funded();
    await failRoute(agent.api_key, 'openai/gpt-5', 1);
    expect(await ask(agent.api_key, 'openai/gpt-5')).toEqual(BY_OPENAI);
    await failRoute(agent.api_key, 'openai/gpt-5', 1);
    expect(await endpointStatus('openai/gpt-5', 'openai')).toBe('degraded');
    await failRoute(agent.api_key, 'openai/gpt-5', 1);
    expect(await ask(agent.api_key, 'openai/gpt-5')).toEqual(SKIPPED);
  });

  it("does not count a 400 naming the request's own fault", async () => {
    const agent = await funded();
    const claude = (tag: string) => viaClaude(agent.api_key, 'anthropic/claude-opus-4-5', tag);
    // The Anthropic simulator answers `[tool]` without tools with a 400: returned, not failed over.
    for (let i = 0; i < 2; i++) expect(await claude('[tool]')).toBe('400 anthropic');
    expect(await claude('[fail-anthropic]')).toBe('200 openai');
    // Counted with the 400s, that would be 3 of 2: open.
    expect(await endpointStatus('anthropic/claude-opus-4-5', 'anthropic')).toBe('degraded');
    // The second failure that fails over opens it.
    expect(await claude('[fail-anthropic]')).toBe('200 openai');
    expect(await claude('')).toBe('200 openai');
  });

  it('half-open after the cool-down: exactly one request probes the route while the others skip it', async () => {
    const agent = await funded();
    const env = breakerEnv({ UPSTREAM_TIMEOUT_MS: '1500' });
    await failRoute(agent.api_key, 'openai/gpt-4o', 2, '[fail-openai]', env);
    await sleep(1100);
    // The probe hangs until its timeout, so the other requests decide while it is out.
    const three = await Promise.all([0, 1, 2].map(() => ask(agent.api_key, 'openai/gpt-4o', '[fail-openai=hang]', env)));
    expect(three.filter((answer) => answer.calls[0] === 'openai')).toEqual([FELL_OVER]);
    expect(three.filter((answer) => answer.calls[0] !== 'openai')).toEqual([SKIPPED, SKIPPED]);
  });

  it("the probe's success closes the breaker", async () => {
    const agent = await funded();
    await failRoute(agent.api_key, 'openai/gpt-5.5', 2);
    await sleep(1100);
    expect(await endpointStatus('openai/gpt-5.5', 'openai')).toBe('degraded');
    expect(await ask(agent.api_key, 'openai/gpt-5.5')).toEqual(BY_OPENAI);
    // Closed, not half-open with its slot taken: the next request calls it too.
    expect(await ask(agent.api_key, 'openai/gpt-5.5')).toEqual(BY_OPENAI);
    expect(await endpointStatus('openai/gpt-5.5', 'openai')).toBe('ok');
  });

  it('a probe that ends without a verdict (a 400) gives its slot back: the next request probes', async () => {
    const agent = await funded();
    const claude = (tag: string) => viaClaude(agent.api_key, 'anthropic/claude-opus-4-6', tag);
    for (let i = 0; i < 2; i++) expect(await claude('[fail-anthropic]')).toBe('200 openai');
    await sleep(1100);
    // The Anthropic simulator answers `[tool]` without tools with a 400: the probe's answer says nothing of the route.
    expect(await claude('[tool]')).toBe('400 anthropic');
    expect(await claude('')).toBe('200 anthropic');
  });

  it("the probe's failure opens the breaker again for the cool-down", async () => {
    const agent = await funded();
    await failRoute(agent.api_key, 'openai/gpt-5.1', 2);
    await sleep(1100);
    expect(await ask(agent.api_key, 'openai/gpt-5.1', '[fail-openai]')).toEqual(FELL_OVER);
    expect(await ask(agent.api_key, 'openai/gpt-5.1')).toEqual(SKIPPED);
    await sleep(1100);
    expect(await ask(agent.api_key, 'openai/gpt-5.1')).toEqual(BY_OPENAI);
  });

  it("when every attempt's route is open, they are still tried, in order", async () => {
    const agent = await funded();
    const sonnet = ['anthropic/claude-sonnet-4-5'];
    for (let i = 0; i < 2; i++) {
      expect(await ask(agent.api_key, 'openai/gpt-5.2', '[fail-openai] [fail-anthropic]', breakerEnv(), sonnet)).toEqual({ status: 502, served: 'anthropic', calls: ['openai', 'anthropic'] });
    }
    expect(await endpointStatus('openai/gpt-5.2', 'openai')).toBe('down');
    expect(await endpointStatus('anthropic/claude-sonnet-4-5', 'anthropic')).toBe('down');
    expect(await ask(agent.api_key, 'openai/gpt-5.2', '', breakerEnv(), sonnet)).toEqual(BY_OPENAI);
  });
});

describe("a route breaker and the upstream's Retry-After", () => {
  it('a Retry-After longer than the cool-down keeps the route skipped until it has passed', async () => {
    const agent = await funded();
    await failRoute(agent.api_key, 'openai/gpt-4.1-mini', 2, '[fail-openai=429] [retry-after=2]');
    await sleep(1300);
    // Past the 1 s cool-down, within the 2 s the upstream asked for.
    expect(await ask(agent.api_key, 'openai/gpt-4.1-mini')).toEqual(SKIPPED);
    await sleep(1000);
    expect(await ask(agent.api_key, 'openai/gpt-4.1-mini')).toEqual(BY_OPENAI);
  });

  it('a Retry-After given as an HTTP date is read as the time until it', async () => {
    const agent = await funded();
    const date = new Date(Date.now() + 4000).toUTCString();
    await failRoute(agent.api_key, 'openai/gpt-5-nano', 2, `[fail-openai=429] [retry-after=${date}]`);
    await sleep(1300);
    expect(await ask(agent.api_key, 'openai/gpt-5-nano')).toEqual(SKIPPED);
  });

  it('a Retry-After beyond ROUTE_BREAKER_MAX_COOLDOWN_MS is cut to it', async () => {
    const agent = await funded();
    await failRoute(agent.api_key, 'openai/gpt-5-mini', 2, '[fail-openai=429] [retry-after=3600]');
    await sleep(1300);
    // Past the 1 s cool-down: the Retry-After holds it, up to the 2 s cap.
    expect(await ask(agent.api_key, 'openai/gpt-5-mini')).toEqual(SKIPPED);
    await sleep(1000);
    expect(await ask(agent.api_key, 'openai/gpt-5-mini')).toEqual(BY_OPENAI);
  });
});

describe('/v1/models endpoints status', () => {
  const openaiStatus = (model: string) => endpointStatus(model, 'openai');

  it('reads ok, then degraded after a failure, down while open, degraded half-open, ok once the probe served', async () => {
    const agent = await funded();
    const model = 'openai/gpt-5.4';
    expect(await openaiStatus(model)).toBe('ok');
    await failRoute(agent.api_key, model, 1);
    expect(await openaiStatus(model)).toBe('degraded');
    await failRoute(agent.api_key, model, 1);
    expect(await openaiStatus(model)).toBe('down');
    await sleep(1100);
    expect(await openaiStatus(model)).toBe('degraded');
    expect(await ask(agent.api_key, model)).toEqual(BY_OPENAI);
    expect(await openaiStatus(model)).toBe('ok');
  });
});

describe('the catalog page a person reads', () => {
  it("shows a provider whose route is open as down, one with recent failures as degraded, and the others serving", async () => {
    const agent = await funded();
    const model = 'anthropic/claude-sonnet-4-6';
    const providers = async () => {
      const html = await (await send(`/models?q=${encodeURIComponent('sonnet 4.6')}`, '', undefined, { method: 'GET', env: breakerEnv() })).text();
      return /<td data-label="Providers">(.*?)<\/td>/s.exec(html)?.[1]?.replace(/<[^>]+>/g, '') ?? '';
    };
    expect(await providers()).toContain('Anthropic (serving)');
    expect(await viaClaude(agent.api_key, model, '[fail-anthropic]')).toBe('200 openai');
    expect(await providers()).toContain('Anthropic (degraded)');
    expect(await viaClaude(agent.api_key, model, '[fail-anthropic]')).toBe('200 openai');
    expect(await providers()).toContain('Anthropic (down: skipped for now)');
  });
});

describe('route health shared across isolates', () => {
  it("reports to the provider's object of the request's data center: a failure in one colo is not another's", async () => {
    const agent = await funded();
    // DeepSeek V3.1: Fireworks first (its route refuses connections here, a failure), then Together; no other test asks it.
    const body = { model: 'deepseek/deepseek-v3.1', messages: [{ role: 'user', content: crypto.randomUUID() }], max_tokens: 20 };
    expect((await send('/v1/chat/completions', agent.api_key, body, { env: breakerEnv(), colo: 'AMS' })).headers.get('X-Service-Provider')).toBe('together');
    const view = (name: string) => env.ROUTE_HEALTH.get(env.ROUTE_HEALTH.idFromName(name)).view();
    // The report is sent after the answer (`waitUntil`, awaited by `send`).
    expect((await view('fireworks@AMS'))['accounts/fireworks/models/deepseek-v3p1']?.failedAt).toHaveLength(1);
    expect((await view('fireworks@LHR'))['accounts/fireworks/models/deepseek-v3p1']).toBeUndefined();
    expect((await view('fireworks'))['accounts/fireworks/models/deepseek-v3p1']).toBeUndefined();
  });

  /** Another isolate's two failures of a route, reported to its provider's object. */
  async function failedElsewhere(provider: string, upstreamId: string) {
    const config = { failures: 2, windowMs: 60_000, coolDownMs: 60_000, maxCoolDownMs: 60_000 };
    const failure = { upstreamId, outcome: 'failure' } as const;
    await env.ROUTE_HEALTH.get(env.ROUTE_HEALTH.idFromName(provider)).report([failure, failure], config);
  }

  /** Calls `read` until it gives `expected`, for as long as a refresh may take; what it gave last. */
  async function within(ms: number, read: () => Promise<string | null | undefined>, expected: string) {
    const deadline = Date.now() + ms;
    let seen = await read();
    while (seen !== expected && Date.now() < deadline) {
      await sleep(200);
      seen = await read();
    }
    return seen;
  }

  it("a request skips a route another isolate's failures opened, once this isolate has refreshed its copy", async () => {
    const agent = await funded();
    await failedElsewhere('together', 'meta-llama/Llama-3.3-70B-Instruct-Turbo');
    // Llama 3.3 on Together (Fireworks left out), Claude Haiku as the fallback model.
    const body = () => ({ model: 'meta/llama-3.3-70b-instruct', models: ['anthropic/claude-haiku-4-5'], provider: { ignore: ['fireworks'] }, messages: [{ role: 'user', content: crypto.randomUUID() }], max_tokens: 20 });
    const served = async () => (await send('/v1/chat/completions', agent.api_key, body(), { env: breakerEnv() })).headers.get('X-Service-Provider');
    expect(await within(REFRESH_MS + 2000, served, 'anthropic')).toBe('anthropic');
    expect(await served()).toBe('anthropic');
  }, 15_000);

  it("/v1/models shows a route another isolate's failures opened as down, once this isolate has refreshed its copy", async () => {
    await failedElsewhere('fireworks', 'accounts/fireworks/models/llama-v3p3-70b-instruct');
    expect(await within(REFRESH_MS + 2000, () => endpointStatus('meta/llama-3.3-70b-instruct', 'fireworks'), 'down')).toBe('down');
  }, 15_000);
});
