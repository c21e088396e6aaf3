import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { OPEN_INTENTS_PER_ACCOUNT, OPEN_INTENTS_PER_SUB_KEY } from '../../src/funding/intents';
import { IMAGES_UPSTREAM_KEY } from './global-setup';
import { expectError, register } from './helpers';
import { app, createOrganization, invite, join } from './org-helpers';
import { chat, funded, mint, send } from './sub-key-helpers';

/**
 * D35 through the public API: a sub-key sees only its own data (its requests, uploads,
 * generations and jobs; another key's is a 404, as another account's) and cannot use up the
 * account's USDC intents; the account's own keys keep seeing everything.
 */

const imagesEnv = { ...env, OPENAI_API_KEY: IMAGES_UPSTREAM_KEY, OPENAI_BASE_URL: `${inject('imagesUpstreamUrl')}/v1`, JOBS: { send: async () => {} } } as unknown as Env;
const webEnv = { ...env, WEB_ALLOW_PRIVATE_HOSTS: new URL(inject('websiteUrl')).host } as Env;
const { rpcUrl, depositAddress } = inject('chain');
const chainEnv = { ...env, BASE_RPC_URL: rpcUrl, USDC_DEPOSIT_ADDRESS: depositAddress } as Env;

/** A sync image render: its request id, and the id of the job it is recorded as. */
async function image(apiKey: string) {
  const res = await send('/v1/images/generations', apiKey, { body: { model: 'openai/gpt-image-1-mini', prompt: 'a red square', size: '1024x1024' } }, imagesEnv);
  expect(res.status, await res.clone().text()).toBe(200);
  const requestId = res.headers.get('X-Service-Request-Id')!;
  return { requestId, jobId: `imgjob_${requestId.replace(/^req_/, '')}` };
}

/** Reserves a 100-byte PNG upload and PUTs it through the Worker's own upload URL: its key. */
async function upload(apiKey: string): Promise<string> {
  const res = await send('/v1/uploads', apiKey, { body: { content_type: 'image/png', content_length: 100 } });
  expect(res.status, await res.clone().text()).toBe(200);
  const { upload_url: url, key } = (await res.json()) as { upload_url: string; key: string };
  const bytes = new Uint8Array(100).fill(7);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const ctx = createExecutionContext();
  const put = await app.fetch(new Request(url, { method: 'PUT', headers: { 'Content-Type': 'image/png', 'Content-Length': '100' }, body: bytes }), env, ctx);
  await waitOnExecutionContext(ctx);
  expect(put.status, await put.clone().text()).toBe(200);
  return key;
}

async function listedKeys(path: string, apiKey: string, field: 'key' | 'id'): Promise<string[]> {
  const res = await send(path, apiKey);
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { data: Record<string, string>[] }).data.map((row) => row[field]!);
}

/** A record is written when its hold settles, which may go through the settlement journal a moment later. */
async function lookup(apiKey: string, requestId: string, expected: number): Promise<Response> {
  let res = await send(`/v1/requests/${requestId}`, apiKey);
  for (let i = 0; i < 50 && res.status !== expected; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    res = await send(`/v1/requests/${requestId}`, apiKey);
  }
  return res;
}

describe("a sub-key sees only its own data; its parent sees the account's", () => {
  it("answers another key's request record with 404, and finds its own", async () => {
    const agent = await funded();
    const sub = await mint(agent.api_key, { name: 'reader' });
    const theirs = (await chat(agent.api_key)).headers.get('X-Service-Request-Id')!;
    const mine = (await chat(sub.api_key)).headers.get('X-Service-Request-Id')!;
    expect((await lookup(sub.api_key, mine, 200)).status).toBe(200);
    expect((await lookup(agent.api_key, theirs, 200)).status).toBe(200);
    await expectError(await send(`/v1/requests/${theirs}`, sub.api_key), 404, 'not_found', 'invalid_request_error', 'request_id');
    // The account's own key finds its sub-key's request too.
    expect((await lookup(agent.api_key, mine, 200)).status).toBe(200);
  });

  it("in an organization, answers another key's request record there with 404, and finds its own", async () => {
    const org = await createOrganization('scoped', '5');
    const member = await register();
    expect((await join(member, await invite(org.organization_id, { auto_approve: true }))).status).toBe(200);
    const sub = await mint(member.api_key, { name: 'member-reader' });
    const theirs = (await chat(member.api_key)).headers.get('X-Service-Request-Id')!;
    const mine = (await chat(sub.api_key)).headers.get('X-Service-Request-Id')!;
    expect((await lookup(sub.api_key, mine, 200)).status).toBe(200);
    expect((await lookup(member.api_key, theirs, 200)).status).toBe(200);
    await expectError(await send(`/v1/requests/${theirs}`, sub.api_key), 404, 'not_found', 'invalid_request_error', 'request_id');
    expect((await lookup(member.api_key, mine, 200)).status).toBe(200);
  });

  it("lists only its own uploads, and its parent lists every upload", async () => {
    const agent = await funded();
    const sub = await mint(agent.api_key, { name: 'uploader' });
    const theirs = await upload(agent.api_key);
    const mine = await upload(sub.api_key);
    expect(await listedKeys('/v1/uploads', sub.api_key, 'key')).toEqual([mine]);
    expect((await listedKeys('/v1/uploads', agent.api_key, 'key')).sort()).toEqual([theirs, mine].sort());
  });

  it('with only chat allowed, lists no upload of the account', async () => {
    const agent = await funded();
    const sub = await mint(agent.api_key, { name: 'chat-only', allowed_routes: ['chat'] });
    await upload(agent.api_key);
    expect(await listedKeys('/v1/uploads', sub.api_key, 'key')).toEqual([]);
  });

  it("lists only its own generations and answers another key's image job with 404", async () => {
    const agent = await funded();
    const sub = await mint(agent.api_key, { name: 'painter' });
    const theirs = await image(agent.api_key);
    const mine = await image(sub.api_key);
    const subSees = await listedKeys('/v1/generations', sub.api_key, 'id');
    expect(subSees).toHaveLength(1);
    expect(await listedKeys('/v1/generations', agent.api_key, 'id')).toHaveLength(2);
    await expectError(await send(`/v1/images/jobs/${theirs.jobId}`, sub.api_key), 404, 'not_found', 'invalid_request_error');
    expect((await send(`/v1/images/jobs/${mine.jobId}`, sub.api_key)).status).toBe(200);
    expect((await send(`/v1/images/jobs/${mine.jobId}`, agent.api_key)).status).toBe(200);
  });

  it("answers another key's crawl job with 404", async () => {
    const agent = await funded();
    const sub = await mint(agent.api_key, { name: 'crawler' });
    const started = await send('/v1/crawl', agent.api_key, { body: { url: `${inject('websiteUrl')}/article`, limit: 1 } }, webEnv);
    expect(started.status, await started.clone().text()).toBe(202);
    const { id } = (await started.json()) as { id: string };
    await expectError(await send(`/v1/crawl/${id}`, sub.api_key, {}, webEnv), 404, 'not_found', 'invalid_request_error');
    expect((await send(`/v1/crawl/${id}`, agent.api_key, {}, webEnv)).status).toBe(200);
  });
});

describe('USDC intents of a sub-key', { timeout: 30_000 }, () => {
  const fund = (apiKey: string, usd: number) => send('/agent/fund', apiKey, { body: { amount_usd: usd } }, chainEnv);

  it(`are capped at ${OPEN_INTENTS_PER_SUB_KEY} open per sub-key and never use up the account's ${OPEN_INTENTS_PER_ACCOUNT}`, async () => {
    const agent = await funded();
    const sub = await mint(agent.api_key, { name: 'payer' });
    for (let i = 0; i < OPEN_INTENTS_PER_SUB_KEY; i++) expect((await fund(sub.api_key, 10 + i)).status).toBe(200);
    await expectError(await fund(sub.api_key, 20), 429, 'rate_limit_exceeded', 'rate_limit_error');
    // Another sub-key has its own, and the parent all of the account's.
    const sibling = await mint(agent.api_key, { name: 'sibling' });
    expect((await fund(sibling.api_key, 30)).status).toBe(200);
    for (let i = 0; i < OPEN_INTENTS_PER_ACCOUNT; i++) expect((await fund(agent.api_key, 40 + i)).status).toBe(200);
    await expectError(await fund(agent.api_key, 60), 429, 'rate_limit_exceeded', 'rate_limit_error');
  });
});

describe('the fund link (D35)', () => {
  it("is never given to a sub-key, in GET /agent/account or a 402's error.funding, since it opens intents on the account's own caps", async () => {
    const agent = await funded('0.000001');
    const sub = await mint(agent.api_key, { name: 'worker' });
    const own = (await (await send('/agent/account', agent.api_key)).json()) as { fund_url: string | null };
    expect(own.fund_url).toMatch(/\/fund\//);
    const seen = (await (await send('/agent/account', sub.api_key)).json()) as { fund_url: string | null };
    expect(seen.fund_url).toBeNull();
    const refused = await chat(sub.api_key);
    const body = await expectError(refused, 402, 'insufficient_credits', 'insufficient_credits_error');
    expect((body.error as { funding?: { fund_url: string | null } }).funding?.fund_url).toBeNull();
    const ownRefusal = await expectError(await chat(agent.api_key), 402, 'insufficient_credits', 'insufficient_credits_error');
    expect((ownRefusal.error as { funding?: { fund_url: string | null } }).funding?.fund_url).toMatch(/\/fund\//);
  });
});
