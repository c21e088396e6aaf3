import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { AccountClient } from '../../src/accounts/account-client';
import { sha256Hex } from '../../src/accounts/credentials';
import { keepHoldAlive } from '../../src/accounts/hold-lease';
import { ADMIN_TOKEN, accountStub, adminCredit, bearer, call, expectError, json, register } from './helpers';

/**
 * Issue #10: a hold lives as long as its request can (a lease its request renews), an operator
 * sees open holds and the whole ledger and can release an orphaned hold, and every hold row and
 * the rows that close it name their request.
 */

async function fundedAccount(usd: string) {
  const account = await register();
  expect((await adminCredit(account.account_id, usd)).status).toBe(200);
  return { ...account, stub: accountStub(account.account_id), keyHash: await sha256Hex(account.api_key) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function openHold(stub: ReturnType<typeof accountStub>, keyHash: string, micros: number, extra: { ttlMs?: number; requestId?: string } = {}) {
  const granted = await stub.authorizeHold({ keyHash, minMicros: micros, maxMicros: micros, purpose: 'chat:test/model', ...extra });
  if (!granted.ok) throw new Error(granted.reason);
  return granted.holdId;
}

/** Runs the alarm by hand (it also fires on its own), after `ms`. */
async function alarmAfter(stub: ReturnType<typeof accountStub>, ms: number) {
  await sleep(ms);
  await runDurableObjectAlarm(stub);
}

const admin = (path: string, init: RequestInit = {}) => call(path, bearer(ADMIN_TOKEN, init));

describe('hold leases', () => {
  it('keeps a renewed hold open past its lease and frees it within a lease of the last renewal', async () => {
    const { account_id, stub, keyHash } = await fundedAccount('1');
    const holdId = await openHold(stub, keyHash, 400_000, { ttlMs: 300 });
    const stop = keepHoldAlive(new AccountClient(env, account_id), holdId, 300, 100);
    await alarmAfter(stub, 700);
    expect((await stub.snapshot()).heldMicros).toBe(400_000);

    stop();
    await alarmAfter(stub, 450);
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000, heldMicros: 0 });
    expect((await stub.ledgerEntries(1))[0]).toMatchObject({ kind: 'release', holdId, note: 'expired', amountMicros: 400_000 });
  });

  it('extends a lease without ever shortening it, and says when the hold is gone', async () => {
    const { stub, keyHash } = await fundedAccount('1');
    const holdId = await openHold(stub, keyHash, 1_000, { ttlMs: 60_000 });
    const storedDeadline = () =>
      runInDurableObject(stub, (_, state) => state.storage.sql.exec<{ expires_at: number }>('SELECT expires_at FROM holds').one().expires_at);
    const before = await storedDeadline();
    expect(await stub.extendHold(holdId, 1_000)).toEqual({ extended: true, expiresAt: before });
    const longer = await stub.extendHold(holdId, 120_000);
    expect(longer.expiresAt).toBeGreaterThan(before + 50_000);
    // The new deadline is durable: the object reads it back after an eviction.
    expect(await storedDeadline()).toBe(longer.expiresAt);

    await stub.settle(holdId, 500);
    expect(await stub.extendHold(holdId, 1_000)).toEqual({ extended: false, expiresAt: null });
  });

  it('names the request on the hold and on the rows that close it, late charges included', async () => {
    const { stub, keyHash } = await fundedAccount('1');
    const settled = await openHold(stub, keyHash, 10_000, { requestId: 'req_settled' });
    const expired = await openHold(stub, keyHash, 20_000, { requestId: 'req_expired', ttlMs: 1 });
    await stub.settle(settled, 4_000);
    await alarmAfter(stub, 20);
    await stub.settle(expired, 7_000);
    const rows = (await stub.ledgerEntries(20)).filter((row) => row.holdId !== null);
    expect(rows.map((row) => [row.kind, row.holdId, row.requestId]).sort()).toEqual(
      [
        ['charge', expired, 'req_expired'],
        ['charge', settled, 'req_settled'],
        ['hold', expired, 'req_expired'],
        ['hold', settled, 'req_settled'],
        ['release', expired, 'req_expired'],
        ['release', settled, 'req_settled'],
      ].sort(),
    );
  });
});

describe('the operator view of holds and the ledger', () => {
  it('lists open holds with their deadline, purpose and request, and counts holds that expired unsettled', async () => {
    const { account_id, stub, keyHash } = await fundedAccount('1');
    const open = await openHold(stub, keyHash, 123_000, { ttlMs: 60_000, requestId: 'req_open' });
    const orphan = await openHold(stub, keyHash, 1_000, { ttlMs: 1, requestId: 'req_orphan' });
    const lateCharged = await openHold(stub, keyHash, 2_000, { ttlMs: 1 });
    await alarmAfter(stub, 20);
    await stub.settle(lateCharged, 1_500);

    const res = await admin(`/admin/accounts/${account_id}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { held_usd: string; holds: Record<string, unknown>[]; expired_unsettled_holds: number };
    expect(body.held_usd).toBe('0.123000');
    expect(body.holds).toEqual([
      {
        id: open,
        key_id: expect.stringMatching(/^key_/),
        amount_usd: '0.123000',
        purpose: 'chat:test/model',
        request_id: 'req_open',
        created_at: expect.any(String),
        expires_at: expect.any(String),
      },
    ]);
    const { created_at, expires_at } = body.holds[0] as { created_at: string; expires_at: string };
    expect(Date.parse(expires_at) - Date.parse(created_at)).toBe(60_000);
    // The orphan counts; the hold charged after its expiry does not.
    expect(body.expired_unsettled_holds).toBe(1);
    expect(orphan).not.toBe(lateCharged);
  });

  it('releases an orphaned hold with the reason in the ledger, idempotently, and still takes a late charge', async () => {
    const { account_id, stub, keyHash } = await fundedAccount('1');
    const holdId = await openHold(stub, keyHash, 300_000);
    const release = () => admin(`/admin/accounts/${account_id}/holds/${holdId}/release`, json({ reason: 'worker crashed' }));

    const first = await release();
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ hold_id: holdId, released: true, balance_usd: '1.000000' });
    expect(await (await release()).json()).toEqual({ hold_id: holdId, released: false, balance_usd: '1.000000' });
    expect((await stub.snapshot()).heldMicros).toBe(0);
    const rows = (await stub.ledgerEntries(5)).filter((row) => row.holdId === holdId && row.kind === 'release');
    expect(rows).toEqual([expect.objectContaining({ amountMicros: 300_000, note: 'operator: worker crashed' })]);

    // The request was alive after all and delivered its answer: its charge still lands, once.
    expect(await stub.settle(holdId, 42_000)).toMatchObject({ ok: true, applied: true, chargedMicros: 42_000 });
    expect(await stub.settle(holdId, 42_000)).toMatchObject({ ok: true, applied: false });
    expect((await stub.snapshot()).balanceMicros).toBe(958_000);
  });

  it('answers 404 for a hold the account never had and for an unknown account, and 400 without a reason', async () => {
    const { account_id } = await fundedAccount('1');
    await expectError(await admin(`/admin/accounts/${account_id}/holds/hold_nope/release`, json({ reason: 'x' })), 404, 'not_found', 'invalid_request_error');
    await expectError(await admin(`/admin/accounts/${crypto.randomUUID()}/holds/hold_nope/release`, json({ reason: 'x' })), 404, 'not_found', 'invalid_request_error');
    await expectError(await admin(`/admin/accounts/${account_id}/holds/hold_nope/release`, json({})), 400, 'invalid_request', 'invalid_request_error', 'reason');
  });

  it('pages through the whole ledger, each row exactly once, newest first', async () => {
    const { account_id, stub, keyHash } = await fundedAccount('1');
    for (let i = 0; i < 4; i++) await stub.settle(await openHold(stub, keyHash, 1_000 + i), 500);
    const all = await stub.ledgerEntries(100);
    expect(all).toHaveLength(1 + 4 * 3);

    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await admin(`/admin/accounts/${account_id}/ledger?limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      const page = (await res.json()) as { data: { seq: number; request_id: string | null }[]; next_cursor: string | null };
      expect(page.data.length).toBeLessThanOrEqual(5);
      seen.push(...page.data.map((row) => row.seq));
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(all.map((row) => row.seq));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('refuses a bad page size or cursor with 400 naming the parameter, and an unknown account with 404', async () => {
    const { account_id } = await fundedAccount('1');
    await expectError(await admin(`/admin/accounts/${account_id}/ledger?limit=0`), 400, 'invalid_request', 'invalid_request_error', 'limit');
    await expectError(await admin(`/admin/accounts/${account_id}/ledger?limit=501`), 400, 'invalid_request', 'invalid_request_error', 'limit');
    await expectError(await admin(`/admin/accounts/${account_id}/ledger?cursor=abc`), 400, 'invalid_request', 'invalid_request_error', 'cursor');
    await expectError(await admin(`/admin/accounts/${crypto.randomUUID()}/ledger`), 404, 'not_found', 'invalid_request_error');
    await expectError(await call(`/admin/accounts/${account_id}/ledger`), 401, 'invalid_admin_token', 'authentication_error');
  });
});
