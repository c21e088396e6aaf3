import { createExecutionContext, runDurableObjectAlarm, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { AccountClient } from '../../src/accounts/account-client';
import { sha256Hex } from '../../src/accounts/credentials';
import { SCRAPE_PRICE_MICROS } from '../../src/products/web/pricing';
import { formatUsd, parseUsd } from '../../src/money';
import { MAX_OPEN_HOLDS } from '../../durable-objects/account/holds';
import { IMAGES_UPSTREAM_KEY } from './global-setup';
import { admin, app, chat, createOrganization, eventually, gateway, invite, join, ledger, organization, send } from './org-helpers';
import { accountStub, adminCredit, call, expectError, json, register, type Registered } from './helpers';

/**
 * D29 through the public API: the operator makes an organization and invites; member accounts
 * join (pending or active), spend the organization's balance within their monthly caps (the
 * organization's Durable Object serializes every member), see it in `GET /agent/account`, and
 * leave, after which they spend their own balance again.
 */

const webEnv = { ...gateway, WEB_ALLOW_PRIVATE_HOSTS: new URL(inject('websiteUrl')).host } as Env;
// The render's backstop message is dropped: the inline render finishes it.
const imagesEnv = { ...env, OPENAI_API_KEY: IMAGES_UPSTREAM_KEY, OPENAI_BASE_URL: `${inject('imagesUpstreamUrl')}/v1`, JOBS: { send: async () => {} } } as unknown as Env;

const scrape = (apiKey: string) => send('/v1/scrape', apiKey, { url: `${inject('websiteUrl')}/article`, stealth: false }, webEnv);

async function funded(usd = '1'): Promise<Registered> {
  const agent = await register();
  expect((await adminCredit(agent.account_id, usd)).status).toBe(200);
  return agent;
}

async function agentAccount(agent: Registered) {
  const res = await send('/agent/account', agent.api_key);
  expect(res.status).toBe(200);
  return (await res.json()) as { balance_usd: string; organization?: { id: string; name: string; status: string; member_cap_usd: string | null; spent_this_month_usd: string } };
}

async function keyIdOf(agent: Registered): Promise<string> {
  const res = await send('/agent/keys', agent.api_key);
  return ((await res.json()) as { data: { id: string }[] }).data[0]!.id;
}

describe('an organization and its members', () => {
  it("shows an uncapped member's quote only what the request could spend, never the organization's balance", async () => {
    const org = await createOrganization('quoted', '50');
    const member = await funded('1');
    expect((await join(member, await invite(org.organization_id, { auto_approve: true }))).status).toBe(200);
    const scrapeQuote = await send('/v1/quote', member.api_key, { path: '/v1/scrape', body: { url: 'https://example.com/' } });
    expect(await scrapeQuote.json()).toMatchObject({ available_usd: formatUsd(SCRAPE_PRICE_MICROS.standard), affordable: true });
    const chatQuote = (await (await send('/v1/quote', member.api_key, { path: '/v1/chat/completions', body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] } })).json()) as {
      available_usd: string;
      worst_case_usd: string;
      affordable: boolean;
      max_tokens_affordable: number;
    };
    // Enough to say what max_tokens the room covers (here the model's cap), and far below the $50.
    expect(chatQuote.affordable).toBe(true);
    expect(chatQuote.max_tokens_affordable).toBe(16_384);
    expect(parseUsd(chatQuote.available_usd)!).toBeLessThan(1_000_000);
    expect(parseUsd(chatQuote.available_usd)!).toBeGreaterThanOrEqual(parseUsd(chatQuote.worst_case_usd)!);
  });

  it('charges an approved member\'s requests to the organization, and the member\'s own balance again after it leaves', async () => {
    const org = await createOrganization('research', '5');
    expect(org.fund_url).toMatch(/\/fund\//);
    const code = await invite(org.organization_id, { member_cap_usd: '2.00' });
    expect(code).toMatch(/^inv-[0-9A-Za-z]{54}$/);
    const member = await funded('1');
    const ownBalance = (await agentAccount(member)).balance_usd;

    const joined = await join(member, code);
    expect(joined.status).toBe(200);
    expect(await joined.json()).toEqual({ organization_id: org.organization_id, status: 'pending' });
    expect((await agentAccount(member)).organization).toEqual({ id: org.organization_id, name: 'research', status: 'pending', member_cap_usd: '2.000000', spent_this_month_usd: '0.000000' });

    // Pending: refused, nothing held anywhere.
    await expectError(await chat(member.api_key), 403, 'membership_pending', 'authorization_error');
    expect((await organization(org.organization_id)).held_usd).toBe('0.000000');
    expect((await agentAccount(member)).balance_usd).toBe(ownBalance);

    const approved = await call(`/admin/organizations/${org.organization_id}/members/${member.account_id}/approve`, { method: 'POST', headers: admin });
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ account_id: member.account_id, status: 'active' });

    const served = await chat(member.api_key);
    expect(served.status, await served.clone().text()).toBe(200);
    const cost = served.headers.get('x-service-cost')!;
    const requestId = served.headers.get('x-service-request-id')!;
    expect(parseUsd(cost)).toBeGreaterThan(0);
    // The organization paid; the member's own balance is untouched.
    await eventually(async () => (await organization(org.organization_id)).balance_usd, formatUsd(5_000_000 - parseUsd(cost)!));
    expect((await agentAccount(member)).balance_usd).toBe(ownBalance);
    const charge = (await ledger(org.organization_id)).find((row) => row.kind === 'charge')!;
    expect(charge).toMatchObject({ amount_usd: formatUsd(-parseUsd(cost)!), member_account_id: member.account_id, key_id: await keyIdOf(member), request_id: requestId });
    expect(charge.hold_id).toMatch(/^oh_/);
    // The member finds its request; the organization's block counts its spend.
    const found = await send(`/v1/requests/${requestId}`, member.api_key);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ id: requestId, status: 'succeeded', cost_usd: cost });
    expect((await agentAccount(member)).organization).toMatchObject({ status: 'active', spent_this_month_usd: cost });

    // A quote (D25) reads the organization's room (here the cap's, $2 less what was spent), shown
    // only up to what the request could spend: a member never reads its organization's balance.
    const quote = await send('/v1/quote', member.api_key, { path: '/v1/scrape', body: { url: 'https://example.com/' } });
    expect(await quote.json()).toMatchObject({ available_usd: formatUsd(SCRAPE_PRICE_MICROS.standard), affordable: true });
    const bigCrawl = await send('/v1/quote', member.api_key, { path: '/v1/crawl', body: { url: 'https://example.com/', limit: 500 } });
    expect(await bigCrawl.json()).toMatchObject({ available_usd: formatUsd(2_000_000 - parseUsd(cost)!), affordable: false });

    const left = await send('/agent/org/leave', member.api_key);
    expect(left.status).toBe(200);
    expect(await left.json()).toEqual({ organization_id: org.organization_id, status: 'left' });
    expect((await agentAccount(member)).organization).toBeUndefined();
    const orgBalance = (await organization(org.organization_id)).balance_usd;

    const own = await chat(member.api_key);
    expect(own.status).toBe(200);
    await eventually(async () => (await agentAccount(member)).balance_usd, formatUsd(parseUsd(ownBalance)! - parseUsd(own.headers.get('x-service-cost')!)!));
    expect((await organization(org.organization_id)).balance_usd).toBe(orgBalance);
    expect((await organization(org.organization_id)).members).toMatchObject([{ account_id: member.account_id, status: 'left', spent_this_month_usd: cost }]);
    // Its request made in the organization is still found after leaving.
    expect((await send(`/v1/requests/${requestId}`, member.api_key)).status).toBe(200);
  });

  it('activates a member at once with an auto-approving invite, and a second join is the same membership', async () => {
    const org = await createOrganization('fleet', '1');
    const code = await invite(org.organization_id, { auto_approve: true });
    const member = await register();
    expect(await (await join(member, code)).json()).toEqual({ organization_id: org.organization_id, status: 'active' });
    expect(await (await join(member, code)).json()).toEqual({ organization_id: org.organization_id, status: 'active' });
    expect((await organization(org.organization_id)).members).toHaveLength(1);
    // Its own balance may be empty: the organization pays.
    expect((await chat(member.api_key)).status).toBe(200);
  });

  it('charges a member\'s streamed chat to the organization, its final frame stating the cost', async () => {
    const org = await createOrganization('streams', '1');
    const member = await register();
    await join(member, await invite(org.organization_id, { auto_approve: true }));
    const res = await send('/v1/chat/completions', member.api_key, { model: 'openai/gpt-4o-mini', max_tokens: 5, stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    expect(res.status).toBe(200);
    const text = await res.text();
    const cost = /"cost_usd":"([0-9.]+)"/.exec(text)?.[1];
    expect(cost, text).toBeDefined();
    await eventually(async () => (await organization(org.organization_id)).balance_usd, formatUsd(1_000_000 - parseUsd(cost!)!));
    // What the member's hold pool set aside meanwhile goes back once it is idle (POOL_IDLE_MS).
    await eventually(async () => (await organization(org.organization_id)).held_usd, '0.000000', 500);
  }, 20_000);

  it('answers 402 insufficient_org_credits with the organization\'s fund link, never the member\'s', async () => {
    const org = await createOrganization('empty');
    const code = await invite(org.organization_id, { auto_approve: true });
    const member = await funded('1');
    await join(member, code);
    const body = await expectError(await chat(member.api_key), 402, 'insufficient_org_credits', 'insufficient_credits_error');
    const funding = (body.error as unknown as { funding: { fund_url: string; organization_id: string; x402: boolean; usdc: unknown; available_usd: string } }).funding;
    expect(funding).toMatchObject({ fund_url: org.fund_url, organization_id: org.organization_id, x402: false, usdc: null, available_usd: '0.000000' });
    expect(body.error.message).toContain(org.organization_id);
  });

  it('refuses a member\'s requests while its organization is suspended, naming the organization', async () => {
    const org = await createOrganization('suspended', '1');
    const member = await funded('1');
    await join(member, await invite(org.organization_id, { auto_approve: true }));
    expect((await call(`/admin/accounts/${org.organization_id}/suspend`, json({ reason: 'test' }, admin))).status).toBe(200);
    const body = await expectError(await chat(member.api_key), 403, 'account_suspended', 'authorization_error');
    expect(body.error.message).toContain(org.organization_id);
  });

  it('answers 402 member_cap_exceeded when the member\'s monthly cap cannot cover the request', async () => {
    const org = await createOrganization('capped', '5');
    const code = await invite(org.organization_id, { auto_approve: true, member_cap_usd: '0.000001' });
    const member = await funded('1');
    await join(member, code);
    const res = await chat(member.api_key);
    await expectError(res, 402, 'member_cap_exceeded', 'insufficient_credits_error');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('still enforces a member key\'s own spend limit, counting what it spent in the organization', async () => {
    const price = SCRAPE_PRICE_MICROS.standard;
    const org = await createOrganization('limits', '5');
    const code = await invite(org.organization_id, { auto_approve: true });
    const member = await funded('1');
    await join(member, code);
    // A key of the member limited to one and a half requests: the first is served by the
    // organization, the second would pass the key's limit with what it spent there.
    const minted = await send('/agent/keys', member.api_key, { name: 'tight', limit_usd: formatUsd(1.5 * price) });
    expect(minted.status).toBe(201);
    const tight = ((await minted.json()) as { api_key: string }).api_key;
    expect((await scrape(tight)).status).toBe(200);
    await expectError(await scrape(tight), 429, 'credit_limit_exceeded', 'rate_limit_error');
    // Another key of the member is not limited by it.
    expect((await scrape(member.api_key)).status).toBe(200);
    // After leaving, the key's limit still counts what it spent in the organization.
    expect((await send('/agent/org/leave', member.api_key)).status).toBe(200);
    await expectError(await scrape(tight), 429, 'credit_limit_exceeded', 'rate_limit_error');
    expect((await scrape(member.api_key)).status).toBe(200);
  });
});

describe('an organization removing a member', () => {
  it('sends a removed member back to its own balance from its next request', async () => {
    const org = await createOrganization('removing', '1');
    const member = await funded('1');
    await join(member, await invite(org.organization_id, { auto_approve: true }));
    expect((await scrape(member.api_key)).status).toBe(200);
    const removed = await call(`/admin/organizations/${org.organization_id}/members/${member.account_id}/remove`, { method: 'POST', headers: admin });
    expect(await removed.json()).toMatchObject({ account_id: member.account_id, status: 'removed' });
    const orgBalance = (await organization(org.organization_id)).balance_usd;
    expect((await scrape(member.api_key)).status).toBe(200);
    await eventually(async () => (await agentAccount(member)).balance_usd, formatUsd(1_000_000 - SCRAPE_PRICE_MICROS.standard));
    expect((await organization(org.organization_id)).balance_usd).toBe(orgBalance);
    expect((await agentAccount(member)).organization).toBeUndefined();
    // Refused or removed, it may ask again, and waits for approval whatever the invite says.
    expect(await (await join(member, await invite(org.organization_id, { auto_approve: true }))).json()).toMatchObject({ status: 'pending' });
  });
});

describe('jobs of a member', () => {
  it('settles an image render and a crawl job of a member in the organization', async () => {
    const org = await createOrganization('jobs', '5');
    const member = await funded('1');
    await join(member, await invite(org.organization_id, { auto_approve: true }));

    const image = await send('/v1/images/generations', member.api_key, { model: 'openai/gpt-image-1-mini', prompt: 'a red square', size: '1024x1024' }, imagesEnv);
    expect(image.status, await image.clone().text()).toBe(200);
    const imageCost = parseUsd(image.headers.get('x-service-cost')!)!;
    expect(imageCost).toBeGreaterThan(0);

    const crawl = await send('/v1/crawl', member.api_key, { url: `${inject('websiteUrl')}/article`, limit: 1 }, webEnv);
    expect(crawl.status, await crawl.clone().text()).toBe(202);
    const { id } = (await crawl.json()) as { id: string };
    const job = env.WEB_JOB.get(env.WEB_JOB.idFromName(id));
    await runDurableObjectAlarm(job);
    for (let i = 0; i < 200 && (await job.view(member.account_id))?.status === 'running'; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    const crawlCost = parseUsd((await job.view(member.account_id))!.cost.toFixed(6))!;
    expect(crawlCost).toBeGreaterThan(0);

    await eventually(async () => (await organization(org.organization_id)).balance_usd, formatUsd(5_000_000 - imageCost - crawlCost));
    expect((await organization(org.organization_id)).held_usd).toBe('0.000000');
    expect((await agentAccount(member)).balance_usd).toBe('1.000000');
    const charges = (await ledger(org.organization_id)).filter((row) => row.kind === 'charge');
    expect(charges.map((row) => row.member_account_id)).toEqual([member.account_id, member.account_id]);
  });
});

describe('money under concurrency', () => {
  it('serves exactly what the organization\'s balance and the caps cover when 40 requests of 4 members arrive at once', async () => {
    const price = SCRAPE_PRICE_MICROS.standard; // a fixed cost: the hold is the charge
    const org = await createOrganization('concurrent', formatUsd(25 * price));
    // Caps of 5, 8 and 20 requests and none: 33 requests fit under the caps, 25 in the balance.
    const caps = [5, 8, 20, null];
    const members = await Promise.all(
      caps.map(async (cap) => {
        const code = await invite(org.organization_id, { auto_approve: true, ...(cap !== null && { member_cap_usd: formatUsd(cap * price) }) });
        const member = await funded('1');
        expect((await join(member, code)).status).toBe(200);
        return { member, cap, own: (await agentAccount(member)).balance_usd };
      }),
    );
    const results = await Promise.all(members.flatMap(({ member }) => Array.from({ length: 10 }, async () => ({ member, res: await scrape(member.api_key) }))));

    const served = results.filter(({ res }) => res.status === 200);
    expect(served).toHaveLength(25);
    for (const { res } of results.filter(({ res }) => res.status !== 200)) {
      expect(res.status).toBe(402);
      expect(['insufficient_org_credits', 'member_cap_exceeded']).toContain(((await res.json()) as { error: { code: string } }).error.code);
    }
    const costs = served.reduce((sum, { res }) => sum + parseUsd(res.headers.get('x-service-cost')!)!, 0);
    expect(costs).toBe(25 * price);
    await eventually(async () => (await organization(org.organization_id)).balance_usd, '0.000000');
    const listed = (await organization(org.organization_id)).members;
    for (const { member, cap, own } of members) {
      const count = served.filter((r) => r.member === member).length;
      if (cap !== null) expect(count).toBeLessThanOrEqual(cap);
      expect(listed.find((m) => m.account_id === member.account_id)!.spent_this_month_usd).toBe(formatUsd(count * price));
      // Members spend the organization's balance, never their own.
      expect((await agentAccount(member)).balance_usd).toBe(own);
    }
  });

  it('serves exactly what the caps and the organization\'s balance cover when 40 chat requests of 4 members arrive at once', async () => {
    const ask = (apiKey: string) => send('/v1/chat/completions', apiKey, { model: 'openai/gpt-4o-mini', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] });
    // The worst case held and the cost charged for this request (the simulator's usage is fixed).
    const probe = await createOrganization('probe', '1');
    const prober = await register();
    await join(prober, await invite(probe.organization_id, { auto_approve: true }));
    expect((await ask(prober.api_key)).status).toBe(200);
    const rows = await ledger(probe.organization_id);
    const held = parseUsd(rows.find((row) => row.kind === 'hold')!.amount_usd)!;
    const cost = -parseUsd(rows.find((row) => row.kind === 'charge')!.amount_usd)!;
    expect(cost).toBeLessThan(held);

    /** 10 requests of each of 4 members at once; each answer with its member's index. */
    async function burst(organizationId: string, caps: (number | null)[]) {
      const members = await Promise.all(
        caps.map(async (cap) => {
          const member = await register();
          await join(member, await invite(organizationId, { auto_approve: true, ...(cap !== null && { member_cap_usd: formatUsd(cap) }) }));
          return member;
        }),
      );
      const results = await Promise.all(members.flatMap((member, i) => Array.from({ length: 10 }, async () => ({ i, res: await ask(member.api_key) }))));
      const codes = await Promise.all(results.map(async ({ res }) => (res.status === 200 ? 'ok' : ((await res.json()) as { error: { code: string } }).error.code)));
      const servedBy = caps.map((_, i) => results.filter((r) => r.i === i && r.res.status === 200).length);
      return { members, codes, servedBy };
    }

    // Caps: one hold and not two, whatever the order (a charge frees less than a second hold
    // needs); less than one hold; none, twice. Whatever arrives first, 1 + 0 + 10 + 10 are served.
    const capped = await createOrganization('capped-chat', '1');
    const a = await burst(capped.organization_id, [held + cost - 1, held - 1, null, null]);
    expect(a.servedBy).toEqual([1, 0, 10, 10]);
    expect(a.codes.filter((code) => code !== 'ok')).toEqual(Array(19).fill('member_cap_exceeded'));
    await eventually(async () => (await organization(capped.organization_id)).balance_usd, formatUsd(1_000_000 - 21 * cost));
    const listed = (await organization(capped.organization_id)).members;
    expect(a.members.map((m) => listed.find((row) => row.account_id === m.account_id)!.spent_this_month_usd)).toEqual([1, 0, 10, 10].map((n) => formatUsd(n * cost)));

    // The balance: one hold and not two, across all members.
    const poor = await createOrganization('poor-chat', formatUsd(held + cost - 1));
    const b = await burst(poor.organization_id, [null, null, null, null]);
    expect(b.servedBy.reduce((x, y) => x + y, 0)).toBe(1);
    expect(b.codes.filter((code) => code !== 'ok')).toEqual(Array(39).fill('insufficient_org_credits'));
    await eventually(async () => (await organization(poor.organization_id)).balance_usd, formatUsd(held - 1));
  });

  it('sends a member\'s concurrent holds to the organization together, not one call each', async () => {
    const org = await createOrganization('busy', '5');
    const member = await register();
    await join(member, await invite(org.organization_id, { auto_approve: true }));
    const calls = async () => {
      const res = await call(`/admin/accounts/${org.organization_id}`, { headers: admin });
      return ((await res.json()) as { durable_object_calls: { by_method: Record<string, number>; ops: Record<string, number> } }).durable_object_calls;
    };
    const before = await calls();
    const answers = await Promise.all(Array.from({ length: 12 }, () => chat(member.api_key)));
    expect(answers.map((res) => res.status)).toEqual(Array(12).fill(200));
    const after = await calls();
    // The Worker batches the 12 into two or three calls to the member; each is one call to the
    // organization (plus one that fills the member's hold pool, which serves later requests).
    const made = (method: string) => (after.by_method[method] ?? 0) - (before.by_method[method] ?? 0);
    expect((after.ops.hold ?? 0) - (before.ops.hold ?? 0)).toBeLessThanOrEqual(12);
    expect(made('holdsForMember')).toBeLessThanOrEqual(4);
    expect(made('holdsForMember') + made('poolForMember')).toBeLessThanOrEqual(5);
  });

  it('keeps a share of the in-flight holds for every member when one member takes all the organization\'s', async () => {
    const org = await createOrganization('fair', '5');
    const code = await invite(org.organization_id, { auto_approve: true, max_uses: 2 });
    const [runaway, other] = [await register(), await register()];
    await join(runaway, code);
    await join(other, code);
    const keyHash = await sha256Hex(runaway.api_key);
    const hold = { op: 'hold' as const, request: { keyHash, route: 'web' as const, minMicros: 1, maxMicros: 1, purpose: 'scrape' } };
    const { results } = await accountStub(runaway.account_id).apply(Array.from({ length: MAX_OPEN_HOLDS + 3 }, () => hold));
    expect(results.filter((r) => (r as { ok?: boolean }).ok === true)).toHaveLength(MAX_OPEN_HOLDS);
    expect(results.at(-1)).toMatchObject({ ok: false, reason: 'too_many_holds', openHolds: MAX_OPEN_HOLDS });
    // The organization's 128 are taken, by one member: another member is still served.
    expect((await scrape(other.api_key)).status).toBe(200);
    await expectError(await scrape(runaway.api_key), 429, 'too_many_concurrent_requests', 'rate_limit_error');
    const client = new AccountClient(env, runaway.account_id);
    await Promise.all(results.filter((r) => (r as { ok?: boolean }).ok === true).map((r) => client.release((r as { holdId: string }).holdId)));
    expect((await organization(org.organization_id)).held_usd).toBe('0.000000');
  });

  it('settles a hold made in the organization there, even when the member left while it was open', async () => {
    const org = await createOrganization('leaving', '1');
    const code = await invite(org.organization_id, { auto_approve: true, member_cap_usd: '0.010000' });
    const member = await funded('1');
    await join(member, code);
    const keyHash = await sha256Hex(member.api_key);
    // The hold as the Worker makes it: one call to the member's object, which asks the organization's.
    const [hold] = (await accountStub(member.account_id).apply([{ op: 'hold', request: { keyHash, route: 'web', minMicros: 3_000, maxMicros: 3_000, purpose: 'scrape', requestId: 'req_leaving' } }])).results as unknown as [
      { ok: true; holdId: string; availableMicros: number },
    ];
    // What is left is the cap's room (D21's evidence), not the member's own balance.
    expect(hold).toMatchObject({ ok: true, availableMicros: 7_000 });
    expect(hold.holdId).toMatch(/^oh_/);
    expect((await organization(org.organization_id)).held_usd).toBe('0.003000');

    expect((await send('/agent/org/leave', member.api_key)).status).toBe(200);
    // Renewed (a lease) and settled through the member's client, as every caller does: both reach the organization.
    expect(await new AccountClient(env, member.account_id).extendHold(hold.holdId, 120_000)).toMatchObject({ extended: true });
    const settled = await new AccountClient(env, member.account_id).settle(hold.holdId, 2_500);
    expect(settled).toMatchObject({ ok: true, chargedMicros: 2_500 });
    expect(await organization(org.organization_id)).toMatchObject({ balance_usd: '0.997500', held_usd: '0.000000' });
    expect((await agentAccount(member)).balance_usd).toBe('1.000000');
    // A repeat charges nothing more.
    expect(await new AccountClient(env, member.account_id).settle(hold.holdId, 2_500)).toMatchObject({ ok: true, applied: false });
  });
});

describe('what a key spent through an organization', () => {
  async function keySpend(agent: Registered): Promise<Record<string, string>> {
    const res = await send('/agent/keys', agent.api_key);
    expect(res.status).toBe(200);
    return Object.fromEntries(((await res.json()) as { data: { name: string; spent_usd: string }[] }).data.map((key) => [key.name, key.spent_usd]));
  }

  async function mint(agent: Registered, name: string, limitUsd: string): Promise<string> {
    const minted = await send('/agent/keys', agent.api_key, { name, limit_usd: limitUsd });
    expect(minted.status).toBe(201);
    return ((await minted.json()) as { api_key: string }).api_key;
  }

  it('shows in GET /agent/keys what each key spent in the organization, while a member, after leaving and after rejoining, once', async () => {
    const price = SCRAPE_PRICE_MICROS.standard;
    const org = await createOrganization('key-spend', '5');
    const code = await invite(org.organization_id, { auto_approve: true });
    const member = await funded('1');
    const mainName = Object.keys(await keySpend(member))[0]!;
    const sub = await mint(member, 'sub', '1.00');
    expect((await scrape(member.api_key)).status).toBe(200); // its own balance
    await join(member, code);
    expect((await scrape(member.api_key)).status).toBe(200);
    expect((await scrape(sub)).status).toBe(200);
    expect((await scrape(sub)).status).toBe(200);
    const expected = { [mainName]: formatUsd(2 * price), sub: formatUsd(2 * price) };
    await eventually(() => keySpend(member), expected);
    expect((await send('/agent/org/leave', member.api_key)).status).toBe(200);
    expect(await keySpend(member)).toEqual(expected);
    // Back in: the organization counts that spend again, and the account no longer does.
    await join(member, code);
    expect(await keySpend(member)).toEqual(expected);
    expect((await scrape(sub)).status).toBe(200);
    await eventually(() => keySpend(member), { ...expected, sub: formatUsd(3 * price) });
  });

  it('counts a streamed chat that ends after its member left against its key\'s limit, once', async () => {
    const org = await createOrganization('late-stream', '5');
    const member = await funded('1');
    await join(member, await invite(org.organization_id, { auto_approve: true }));
    const body = { model: 'openai/gpt-4o-mini', max_tokens: 5, stream: true, messages: [{ role: 'user', content: 'Hi' }] };
    // What such a chat costs, streamed by the unlimited key.
    const first = await send('/v1/chat/completions', member.api_key, body);
    const cost = parseUsd(/"cost_usd":"([0-9.]+)"/.exec(await first.text())![1]!)!;
    expect(cost).toBeGreaterThan(0);
    // A sub-key whose limit covers one such chat and a micro-dollar.
    const tight = await mint(member, 'tight', formatUsd(cost + 1));

    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request('https://gateway.test/v1/chat/completions', { method: 'POST', headers: { Authorization: `Bearer ${tight}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
      gateway,
      ctx,
    );
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    // Mid-stream: its hold is open in the organization when the member leaves.
    expect(parseUsd((await organization(org.organization_id)).held_usd)).toBeGreaterThan(0);
    expect((await send('/agent/org/leave', member.api_key)).status).toBe(200);
    let text = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
    await waitOnExecutionContext(ctx);
    expect(text).toContain(`"cost_usd":"${formatUsd(cost)}"`);
    await eventually(async () => (await organization(org.organization_id)).held_usd, '0.000000');

    // The key's limit counts it: one micro-dollar is left, too little for another chat.
    await expectError(await chat(tight), 429, 'credit_limit_exceeded', 'rate_limit_error');
    expect((await keySpend(member)).tight).toBe(formatUsd(cost));
    // A replayed settlement of that hold charges and counts nothing more.
    const charge = (await ledger(org.organization_id)).filter((row) => row.kind === 'charge' && row.key_id !== null).at(0)!;
    expect(await new AccountClient(env, member.account_id).settle(charge.hold_id!, cost)).toMatchObject({ ok: true, applied: false });
    await expectError(await chat(tight), 429, 'credit_limit_exceeded', 'rate_limit_error');
    expect((await keySpend(member)).tight).toBe(formatUsd(cost));
  });

  it("counts a charge that arrives after its hold expired in the organization and the member left, once", async () => {
    const org = await createOrganization('late-charge', '5');
    const member = await funded('1');
    await join(member, await invite(org.organization_id, { auto_approve: true }));
    // A sub-key whose limit covers 3,000 µ$ and one more micro-dollar.
    const tight = await mint(member, 'late', formatUsd(3_001));
    const keyHash = await sha256Hex(tight);
    const [hold] = (await accountStub(member.account_id).apply([{ op: 'hold', request: { keyHash, route: 'web', minMicros: 3_000, maxMicros: 3_000, purpose: 'scrape', ttlMs: 1 } }])).results as unknown as [{ ok: true; holdId: string }];
    expect(hold.holdId).toMatch(/^oh_/);
    // Its Worker died: the organization's alarm releases it at its deadline.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await runDurableObjectAlarm(accountStub(org.organization_id));
    expect((await organization(org.organization_id)).held_usd).toBe('0.000000');

    expect((await send('/agent/org/leave', member.api_key)).status).toBe(200);
    // The late settlement (the settlement journal retries until it lands) still charges the expired hold there.
    expect(await new AccountClient(env, member.account_id).settle(hold.holdId, 3_000)).toMatchObject({ ok: true, chargedMicros: 3_000 });
    // The key's limit counts it: one micro-dollar is left, too little for another scrape.
    await expectError(await scrape(tight), 429, 'credit_limit_exceeded', 'rate_limit_error');
    expect((await keySpend(member)).late).toBe(formatUsd(3_000));
  });
});

describe('what a member may not do', () => {
  it('refuses a guessed, malformed or revoked invite with 404, and a member of one organization joining another with 400', async () => {
    const org = await createOrganization('guarded', '1');
    const code = await invite(org.organization_id);
    const agent = await funded('1');
    const guessed = code.slice(0, -32) + 'A'.repeat(32);
    await expectError(await join(agent, guessed), 404, 'not_found', 'invalid_request_error', 'invite_code');
    await expectError(await join(agent, 'inv-nothing'), 404, 'not_found', 'invalid_request_error', 'invite_code');
    await expectError(await join(agent, `inv-${'0'.repeat(54)}`), 404, 'not_found', 'invalid_request_error', 'invite_code');

    const revocable = await call(`/admin/organizations/${org.organization_id}/invites`, json({ auto_approve: true }, admin));
    const { invite_code, invite_id } = (await revocable.json()) as { invite_code: string; invite_id: string };
    expect((await call(`/admin/organizations/${org.organization_id}/invites/${invite_id}`, { method: 'DELETE', headers: admin })).status).toBe(200);
    await expectError(await join(agent, invite_code), 404, 'not_found', 'invalid_request_error', 'invite_code');

    expect((await join(agent, code)).status).toBe(200);
    const other = await createOrganization('other', '1');
    await expectError(await join(agent, await invite(other.organization_id, { auto_approve: true })), 400, 'invalid_request', 'invalid_request_error', 'invite_code');
    expect((await agentAccount(agent)).organization?.id).toBe(org.organization_id);
  });

  it('keeps the operator\'s routes to the operator, and one member\'s requests from another', async () => {
    const org = await createOrganization('private', '1');
    const code = await invite(org.organization_id, { auto_approve: true, max_uses: 2 });
    const [a, b] = [await register(), await register()];
    await join(a, code);
    await join(b, code);
    // A member's key is no operator token: it cannot approve anyone, itself included, or read the organization.
    const approve = await call(`/admin/organizations/${org.organization_id}/members/${a.account_id}/approve`, { method: 'POST', headers: { Authorization: `Bearer ${a.api_key}` } });
    expect(approve.status).toBe(401);
    expect((await call(`/admin/organizations/${org.organization_id}`, { headers: { Authorization: `Bearer ${a.api_key}` } })).status).toBe(401);
    // 404 for an account that never joined.
    await expectError(await call(`/admin/organizations/${org.organization_id}/members/${crypto.randomUUID()}/approve`, { method: 'POST', headers: admin }), 404, 'not_found', 'invalid_request_error', 'account_id');

    const served = await chat(a.api_key);
    expect(served.status).toBe(200);
    const requestId = served.headers.get('x-service-request-id')!;
    expect((await send(`/v1/requests/${requestId}`, a.api_key)).status).toBe(200);
    await expectError(await send(`/v1/requests/${requestId}`, b.api_key), 404, 'not_found', 'invalid_request_error', 'request_id');
    // b sees its own spend only.
    expect((await agentAccount(b)).organization).toMatchObject({ spent_this_month_usd: '0.000000' });
  });

  it('refuses an organization as a member, and a sub-key changing its account\'s membership', async () => {
    const org = await createOrganization('parent', '1');
    const code = await invite(org.organization_id, { auto_approve: true });
    const agent = await funded('1');
    const minted = await send('/agent/keys', agent.api_key, { name: 'sub' });
    const sub = ((await minted.json()) as { api_key: string }).api_key;
    await expectError(await send('/agent/org/join', sub, { invite_code: code }), 403, 'guardrail_blocked', 'authorization_error');
    // An organization has no key; its own invite does not make it a member of itself.
    const self = await accountStub(org.organization_id).joinAsMember(org.organization_id, await sha256Hex(code));
    expect(self).toEqual({ ok: false, reason: 'invalid_invite' });
    await expectError(await send('/agent/org/leave', agent.api_key), 404, 'not_found', 'invalid_request_error');
  });
});
