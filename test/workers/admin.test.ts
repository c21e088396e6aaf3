import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { AccountClient } from '../../src/accounts/account-client';
import { sha256Hex } from '../../src/accounts/credentials';
import { createApp } from '../../src/app';
import { agentWithClaim, visitorPastCode } from './claim-helpers';
import { accountStub, ADMIN_TOKEN, adminCredit, bearer, call, expectError, json, register, type Registered } from './helpers';
import { claimWithPasskey, mailedCodes } from './passkey-flow';

describe('the operator API', () => {
  it('credits an account and the key sees the new balance', async () => {
    const account = await register();
    const res = await adminCredit(account.account_id, '12.50');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ account_id: account.account_id, balance_usd: '12.500000' });
    const seen = (await (await call('/agent/account', bearer(account.api_key))).json()) as Record<string, unknown>;
    expect(seen.balance_usd).toBe('12.500000');
    // Funding lifts the expiry: a funded account never expires.
    expect(seen.expires_unless_funded_at).toBeNull();
  });

  it('applies a negative correction', async () => {
    const account = await register();
    await adminCredit(account.account_id, '5');
    const res = await adminCredit(account.account_id, '-1.250001');
    expect(await res.json()).toMatchObject({ balance_usd: '3.749999' });
  });

  it('credits once per Idempotency-Key', async () => {
    const account = await register();
    const key = crypto.randomUUID();
    await Promise.all([adminCredit(account.account_id, '2', key), adminCredit(account.account_id, '2', key)]);
    const again = await adminCredit(account.account_id, '2', key);
    expect(await again.json()).toMatchObject({ balance_usd: '2.000000' });
  });

  it.each([
    ['more than 6 fraction digits', '1.0000001'],
    ['not a number', 'ten'],
    ['a JSON-ish float', '1e3'],
  ])('refuses an amount with %s', async (_, amount) => {
    const account = await register();
    const res = await adminCredit(account.account_id, amount);
    await expectError(res, 400, 'invalid_request', 'invalid_request_error', 'amount_usd');
  });

  it('refuses a zero amount', async () => {
    const account = await register();
    await expectError(await adminCredit(account.account_id, '0.000'), 400, 'invalid_request', 'invalid_request_error', 'amount_usd');
  });

  it('answers 404 for an account that does not exist', async () => {
    await expectError(await adminCredit(crypto.randomUUID(), '1'), 404, 'not_found', 'invalid_request_error');
    const res = await call(`/admin/accounts/${crypto.randomUUID()}`, bearer(ADMIN_TOKEN));
    await expectError(res, 404, 'not_found', 'invalid_request_error');
  });

  it('shows the account, its keys without secrets and its ledger', async () => {
    const account = await register();
    await adminCredit(account.account_id, '3');
    const res = await call(`/admin/accounts/${account.account_id}`, bearer(ADMIN_TOKEN));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { balance_usd: string; keys: Record<string, unknown>[]; ledger: Record<string, unknown>[] };
    expect(body.balance_usd).toBe('3.000000');
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).toMatchObject({ name: 'default', hint: `ak-…${account.api_key.slice(-4)}`, revoked_at: null });
    expect(JSON.stringify(body)).not.toContain(account.api_key);
    expect(JSON.stringify(body)).not.toMatch(/[0-9a-f]{64}/); // no hashes either
    expect(body.ledger[0]).toMatchObject({ kind: 'credit', amount_usd: '3.000000', balance_after_usd: '3.000000', source: 'operator', note: 'test' });
  });

  it.each([
    ['no token', {}],
    ['a wrong token', { Authorization: 'Bearer not-the-token' }],
  ])('refuses %s with 401', async (_, headers) => {
    const res = await call(`/admin/accounts/${crypto.randomUUID()}/credits`, { ...json({ amount_usd: '1', reason: 'x' }), headers: { 'Content-Type': 'application/json', ...headers } });
    await expectError(res, 401, 'invalid_admin_token', 'authentication_error');
  });
});

interface ListedAccount {
  account_id: string;
  created_at: string;
  claimed: boolean;
  email: string | null;
  funded_at: string | null;
  suspended: { reason: string } | null;
  balance_usd: string | null;
  held_usd: string | null;
}

async function listAccounts(query: Record<string, string> = {}): Promise<Response> {
  return call(`/admin/accounts?${new URLSearchParams(query)}`, bearer(ADMIN_TOKEN));
}

async function listed(query: Record<string, string> = {}): Promise<{ data: ListedAccount[]; next_cursor: string | null }> {
  const res = await listAccounts(query);
  expect(res.status).toBe(200);
  return res.json();
}

/** A USDC deposit from `from` credited to the account, as the chain watcher records it. */
async function depositFrom(accountId: string, from: string): Promise<void> {
  const tx = `0x${crypto.randomUUID().replaceAll('-', '')}${crypto.randomUUID().replaceAll('-', '')}`;
  await env.DB.prepare(
    `INSERT INTO deposits (id, tx_hash, log_index, block_number, block_hash, from_address, amount, status, account_id, seen_at, credited_at)
     VALUES (?, ?, 0, 1, ?, ?, '5000000', 'credited', ?, ?, ?)`,
  )
    .bind(`${tx}:0`, tx, tx, from, accountId, Date.now(), Date.now())
    .run();
}

describe("the calls that reach an account's Durable Object (GET /admin/accounts/{id} durable_object_calls)", () => {
  const app = createApp();
  const gateway = { ...env, OPENAI_API_KEY: 'sk-admin-calls', OPENAI_BASE_URL: `${inject('chatUpstreamUrl')}/v1` } as Env;
  interface Counts {
    since: string;
    calls: number;
    by_method: Record<string, number>;
    ops: Record<string, number>;
  }
  const counts = async (accountId: string) => {
    const res = await call(`/admin/accounts/${accountId}`, bearer(ADMIN_TOKEN));
    expect(res.status).toBe(200);
    return ((await res.json()) as { durable_object_calls: Counts }).durable_object_calls;
  };
  const chat = async (apiKey: string) => {
    const ctx = createExecutionContext();
    const body = JSON.stringify({ model: 'openai/gpt-4o-mini', max_tokens: 20, messages: [{ role: 'user', content: 'Count me' }] });
    const res = await app.fetch(new Request('https://gateway.test/v1/chat/completions', { method: 'POST', headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' }, body }), gateway, ctx);
    expect(res.status, await res.clone().text()).toBe(200);
    await res.text();
    await waitOnExecutionContext(ctx);
  };

  it('counts each call of the request path and the operations it carries: a lone completion is a hold call and a settlement call', async () => {
    const account = await register();
    await adminCredit(account.account_id, '1');
    const before = await counts(account.account_id);
    expect(before.since).toMatch(/^\d{4}-\d\d-\d\dT/);
    await chat(account.api_key);
    await chat(account.api_key);
    const after = await counts(account.account_id);
    expect(after.since).toBe(before.since);
    expect(after.calls - before.calls).toBe(4);
    expect((after.by_method.apply ?? 0) - (before.by_method.apply ?? 0)).toBe(4);
    expect((after.ops.hold ?? 0) - (before.ops.hold ?? 0)).toBe(2);
    expect((after.ops.settle ?? 0) - (before.ops.settle ?? 0)).toBe(2);
  });

  it('counts a batch of concurrent requests from one isolate as one call carrying all of them', async () => {
    const account = await register();
    await adminCredit(account.account_id, '1');
    const keyHash = await sha256Hex(account.api_key);
    const before = await counts(account.account_id);
    const hold = { keyHash, minMicros: 1_000, maxMicros: 1_000, purpose: 'test' };
    await Promise.all(Array.from({ length: 12 }, () => new AccountClient(env, account.account_id).authorizeHold(hold)));
    const after = await counts(account.account_id);
    // The first is sent alone; the other eleven arrive while it is in flight and go in the next.
    expect(after.calls - before.calls).toBe(2);
    expect((after.ops.hold ?? 0) - (before.ops.hold ?? 0)).toBe(12);
  });

  it('counts the direct money calls other Durable Objects make', async () => {
    const account = await register();
    await adminCredit(account.account_id, '1');
    const keyHash = await sha256Hex(account.api_key);
    const stub = accountStub(account.account_id);
    const before = await counts(account.account_id);
    const held = await stub.authorizeHold({ keyHash, minMicros: 1_000, maxMicros: 1_000, purpose: 'crawl' });
    if (!held.ok) throw new Error(held.reason);
    await stub.extendHold(held.holdId, 60_000);
    await stub.settle(held.holdId, 500);
    const after = await counts(account.account_id);
    expect(after.calls - before.calls).toBe(3);
    for (const method of ['authorizeHold', 'extendHold', 'settle']) expect((after.by_method[method] ?? 0) - (before.by_method[method] ?? 0)).toBe(1);
    expect((after.ops.extend ?? 0) - (before.ops.extend ?? 0)).toBe(1);
  });
});

describe('searching accounts (GET /admin/accounts)', () => {
  it('lists every account newest first, a page at a time, with balance, claim, funding and suspension', async () => {
    const made: Registered[] = [];
    for (let i = 0; i < 3; i++) made.push(await register());
    await adminCredit(made[1]!.account_id, '4.5');
    await call(`/admin/accounts/${made[2]!.account_id}/suspend`, bearer(ADMIN_TOKEN, json({ reason: 'review' })));

    const all = await listed({ limit: '25' });
    const ids = all.data.map((row) => row.account_id);
    expect(ids).toEqual(expect.arrayContaining(made.map((m) => m.account_id)));
    const order = all.data.map((row) => [Date.parse(row.created_at), row.account_id] as const);
    expect(order).toEqual([...order].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? 1 : -1)));

    const funded = all.data.find((row) => row.account_id === made[1]!.account_id)!;
    expect(funded).toMatchObject({ balance_usd: '4.500000', held_usd: '0.000000', claimed: false, email: null, suspended: null });
    expect(funded.funded_at).toEqual(expect.any(String));
    expect(all.data.find((row) => row.account_id === made[2]!.account_id)).toMatchObject({ suspended: { reason: 'review' }, funded_at: null });

    // Page by page, the same rows in the same order, none twice.
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: ListedAccount[]; next_cursor: string | null } = await listed({ limit: '2', ...(cursor ? { cursor } : {}) });
      expect(page.data.length).toBeLessThanOrEqual(2);
      paged.push(...page.data.map((row) => row.account_id));
      cursor = page.next_cursor;
    } while (cursor && paged.length < ids.length);
    expect(paged.slice(0, ids.length)).toEqual(ids);
  });

  it('finds an account by its id and by the id of any of its keys', async () => {
    const agent = await register();
    await register();
    const created = (await (await call(`/admin/accounts/${agent.account_id}/keys`, bearer(ADMIN_TOKEN, json({ name: 'second' })))).json()) as { key: { id: string } };
    const view = (await (await call(`/admin/accounts/${agent.account_id}`, bearer(ADMIN_TOKEN))).json()) as { keys: { id: string }[] };
    expect(view.keys.map((key) => key.id)).toContain(created.key.id);
    for (const q of [agent.account_id, agent.account_id.toUpperCase(), ...view.keys.map((key) => key.id)]) {
      expect((await listed({ q })).data.map((row) => row.account_id)).toEqual([agent.account_id]);
    }
    // A key id of the older random format names no account.
    expect((await listed({ q: `key_${'a'.repeat(20)}` })).data).toEqual([]);
    expect((await listed({ q: crypto.randomUUID() })).data).toEqual([]);
  });

  it('finds the accounts a wallet sent USDC to, whatever the letter case', async () => {
    const wallet = `0x${crypto.randomUUID().replaceAll('-', '')}AbCdEf01`;
    const [first, second, other] = [await register(), await register(), await register()];
    await depositFrom(first.account_id, wallet);
    await depositFrom(second.account_id, wallet);
    await depositFrom(other.account_id, `0x${'1'.repeat(40)}`);
    const found = await listed({ q: wallet.toLowerCase() });
    expect(found.data.map((row) => row.account_id).sort()).toEqual([first.account_id, second.account_id].sort());
    expect((await listed({ q: wallet.toUpperCase().replace('0X', '0x') })).data).toHaveLength(2);
  });

  it("finds an account by its human's claimed email, and shows it", async () => {
    const email = `owner-${crypto.randomUUID()}@example.com`;
    const { agent, init, path } = await agentWithClaim(email);
    // Not before the claim is approved.
    expect((await listed({ q: email })).data).toEqual([]);
    const { codes } = await mailedCodes(() => visitorPastCode(path, init.user_code));
    expect((await claimWithPasskey(path, init.user_code, codes[0]!)).res.status).toBe(200);

    const found = await listed({ q: email.toUpperCase() });
    expect(found.data).toEqual([expect.objectContaining({ account_id: agent.account_id, claimed: true, email })]);
  });

  it.each([
    ['a q of no known shape', { q: 'somebody' }, 'q'],
    ['a limit above 25', { limit: '26' }, 'limit'],
    ['a limit of 0', { limit: '0' }, 'limit'],
    ['a limit that is not a number', { limit: 'ten' }, 'limit'],
    ['a cursor it never gave', { cursor: 'not-a-cursor' }, 'cursor'],
    ['a cursor of another listing', { cursor: btoa('1700000000000:gen_abc') }, 'cursor'],
  ])('refuses %s with 400 naming the parameter', async (_, query, param) => {
    await expectError(await listAccounts(query), 400, 'invalid_request', 'invalid_request_error', param);
  });

  it('needs the admin token and is in /openapi.json', async () => {
    await expectError(await call('/admin/accounts'), 401, 'invalid_admin_token', 'authentication_error');
    const paths = ((await (await call('/openapi.json')).json()) as { paths: Record<string, { get?: { parameters?: { name: string }[] } }> }).paths;
    expect(paths['/admin/accounts']?.get?.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['q', 'limit', 'cursor']));
  });
});

describe('debiting an account (a negative amount on /credits)', () => {
  it('debits with a ledger row carrying the reason and the Idempotency-Key, once per key', async () => {
    const agent = await register();
    await adminCredit(agent.account_id, '10');
    const key = crypto.randomUUID();
    const debit = () =>
      call(`/admin/accounts/${agent.account_id}/credits`, bearer(ADMIN_TOKEN, json({ amount_usd: '-3', reason: 'refund paid by bank transfer' }, { 'Idempotency-Key': key })));
    const [a, b] = await Promise.all([debit(), debit()]);
    expect(await a.json()).toMatchObject({ balance_usd: '7.000000' });
    expect(await b.json()).toMatchObject({ balance_usd: '7.000000' });
    const ledger = (await (await call(`/admin/accounts/${agent.account_id}/ledger`, bearer(ADMIN_TOKEN))).json()) as { data: Record<string, unknown>[] };
    const debits = ledger.data.filter((row) => row.amount_usd === '-3.000000');
    expect(debits).toEqual([expect.objectContaining({ kind: 'credit', source: 'operator', note: 'refund paid by bank transfer', balance_after_usd: '7.000000' })]);
  });

  it('refuses a debit beyond the available balance (the balance less open holds) with 400 naming amount_usd, and changes nothing', async () => {
    const agent = await register();
    await adminCredit(agent.account_id, '2');
    const res = await adminCredit(agent.account_id, '-2.000001');
    const body = await expectError(res, 400, 'invalid_request', 'invalid_request_error', 'amount_usd');
    expect(body.error.message).toContain('2.000000');
    // A hold of $1.5 in flight leaves $0.5 to debit.
    const hold = await accountStub(agent.account_id).authorizeHold({ keyHash: await sha256Hex(agent.api_key), minMicros: 1_500_000, maxMicros: 1_500_000, purpose: 'test' });
    expect(hold.ok).toBe(true);
    await expectError(await adminCredit(agent.account_id, '-0.6'), 400, 'invalid_request', 'invalid_request_error', 'amount_usd');
    expect(await (await adminCredit(agent.account_id, '-0.5')).json()).toMatchObject({ balance_usd: '1.500000' });
    const view = (await (await call(`/admin/accounts/${agent.account_id}`, bearer(ADMIN_TOKEN))).json()) as { balance_usd: string };
    expect(view.balance_usd).toBe('1.500000');
  });
});

describe('the audit trail of operator acts on keys', () => {
  it('writes an audit ledger row naming the key for each key created, changed or revoked by the operator', async () => {
    const agent = await register();
    const admin = (path: string, body: unknown, method = 'POST') =>
      call(path, { method, headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const created = (await (await admin(`/admin/accounts/${agent.account_id}/keys`, { name: 'ci' })).json()) as { key: { id: string } };
    expect((await admin(`/admin/accounts/${agent.account_id}/keys/${created.key.id}`, { daily_limit_usd: '5' }, 'PATCH')).status).toBe(200);
    expect((await admin(`/admin/accounts/${agent.account_id}/keys/${created.key.id}`, { revoked: true }, 'PATCH')).status).toBe(200);
    const ledger = (await (await call(`/admin/accounts/${agent.account_id}/ledger`, bearer(ADMIN_TOKEN))).json()) as { data: Record<string, unknown>[] };
    expect(ledger.data.filter((row) => row.kind === 'audit')).toEqual([
      expect.objectContaining({ key_id: created.key.id, source: 'operator', amount_usd: '0.000000', note: 'key changed by the operator: revoked' }),
      expect.objectContaining({ key_id: created.key.id, source: 'operator', note: 'key changed by the operator: dailyLimitMicros' }),
      expect.objectContaining({ key_id: created.key.id, source: 'operator', note: 'key created by the operator: ci' }),
    ]);
  });
});
