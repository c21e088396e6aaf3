import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/accounts/credentials';
import { ADMIN_TOKEN, accountStub, adminCredit, bearer, call, json, register } from './helpers';

/** A registered account with `usd` on its balance, and what the hold calls need. */
async function fundedAccount(usd: string) {
  const account = await register();
  if (usd !== '0') expect((await adminCredit(account.account_id, usd)).status).toBe(200);
  return { ...account, stub: accountStub(account.account_id), keyHash: await sha256Hex(account.api_key) };
}

const hold = (keyHash: string, micros: number, extra: Record<string, unknown> = {}) => ({
  keyHash,
  minMicros: micros,
  maxMicros: micros,
  purpose: 'test',
  ...extra,
});

describe('the account ledger', () => {
  it('lets exactly the covered number of 100 concurrent holds through', async () => {
    const { stub, keyHash } = await fundedAccount('1'); // covers 10 holds of $0.10
    const results = await Promise.all(Array.from({ length: 100 }, () => stub.authorizeHold(hold(keyHash, 100_000))));
    const granted = results.filter((r) => r.ok);
    expect(granted).toHaveLength(10);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === 'insufficient_credits')).toBe(true);

    const snapshot = await stub.snapshot();
    expect(snapshot.heldMicros).toBe(1_000_000);
    expect(snapshot.balanceMicros).toBe(1_000_000);
    // Settle all granted holds concurrently: balance plus holds never exceed the credits.
    await Promise.all(granted.map((r) => r.ok && stub.settle(r.holdId, 60_000)));
    const after = await stub.snapshot();
    expect(after.balanceMicros).toBe(1_000_000 - 10 * 60_000);
    expect(after.heldMicros).toBe(0);
  });

  it('charges a settlement once, however often it is delivered', async () => {
    const { stub, keyHash } = await fundedAccount('1');
    const granted = await stub.authorizeHold(hold(keyHash, 300_000));
    if (!granted.ok) throw new Error(granted.reason);
    const deliveries = await Promise.all([stub.settle(granted.holdId, 123_456), stub.settle(granted.holdId, 123_456)]);
    const third = await stub.settle(granted.holdId, 999_999);
    expect(deliveries.filter((d) => d.ok && d.applied)).toHaveLength(1);
    expect(third).toMatchObject({ ok: true, applied: false, chargedMicros: 123_456 });
    expect((await stub.snapshot()).balanceMicros).toBe(1_000_000 - 123_456);

    const ledger = await stub.ledgerEntries(10);
    expect(ledger.filter((e) => e.holdId === granted.holdId).map((e) => [e.kind, e.amountMicros]).sort()).toEqual([
      ['charge', -123_456],
      ['hold', 300_000],
      ['release', 176_544],
    ]);
    // The holds table keeps open holds only; the ledger remembers the closed one.
    const open = await runInDurableObject(stub, (_, state) => state.storage.sql.exec('SELECT id FROM holds').toArray());
    expect(open).toEqual([]);
    expect(await stub.settle('hold_0000000000000000000000', 1)).toEqual({ ok: false, reason: 'unknown_hold' });
  });

  it('releases a hold once and charges nothing', async () => {
    const { stub, keyHash } = await fundedAccount('1');
    const granted = await stub.authorizeHold(hold(keyHash, 400_000));
    if (!granted.ok) throw new Error(granted.reason);
    expect((await stub.snapshot()).heldMicros).toBe(400_000);
    const [first, second] = await Promise.all([stub.release(granted.holdId), stub.release(granted.holdId)]);
    expect([first.released, second.released].sort()).toEqual([false, true]);
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000, heldMicros: 0 });
    // A released hold cannot be charged afterwards.
    expect(await stub.settle(granted.holdId, 1)).toEqual({ ok: false, reason: 'hold_released' });
  });

  it('lowers the hold to what the balance covers, down to the minimum (D5)', async () => {
    const { stub, keyHash } = await fundedAccount('0.5');
    const lowered = await stub.authorizeHold({ keyHash, minMicros: 1_000, maxMicros: 2_000_000, purpose: 'test' });
    expect(lowered).toMatchObject({ ok: true, amountMicros: 500_000, availableMicros: 0 });
    const refused = await stub.authorizeHold({ keyHash, minMicros: 1, maxMicros: 10, purpose: 'test' });
    expect(refused).toEqual({ ok: false, reason: 'insufficient_credits', availableMicros: 0, neededMicros: 1, fundToken: expect.any(String) });
  });

  it('charges at most the hold, and writes what the upstream billed beyond it as a loss row that moves no money (D33)', async () => {
    const { stub, keyHash } = await fundedAccount('0.1');
    const granted = await stub.authorizeHold(hold(keyHash, 100_000));
    if (!granted.ok) throw new Error(granted.reason);
    expect(await stub.settle(granted.holdId, 100_250)).toMatchObject({ ok: true, chargedMicros: 100_000, balanceMicros: 0 });
    expect(await stub.settle(granted.holdId, 100_250)).toMatchObject({ ok: true, chargedMicros: 100_000, applied: false });
    expect((await stub.snapshot()).balanceMicros).toBe(0);
    const view = await stub.adminView();
    expect(view?.lossMicros).toBe(250);
    const rows = view!.ledger.filter((row) => row.holdId === granted.holdId);
    expect(rows.find((row) => row.kind === 'loss')).toMatchObject({ amountMicros: 250, balanceAfterMicros: 0 });
    expect(rows.find((row) => row.kind === 'charge')).toMatchObject({ amountMicros: -100_000 });
  });

  it('bounds a late charge of an expired hold by the hold too (D33)', async () => {
    const { stub, keyHash } = await fundedAccount('1');
    const granted = await stub.authorizeHold(hold(keyHash, 250_000, { ttlMs: 1 }));
    if (!granted.ok) throw new Error(granted.reason);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await runDurableObjectAlarm(stub);
    expect(await stub.settle(granted.holdId, 1e12)).toMatchObject({ ok: true, chargedMicros: 250_000, balanceMicros: 750_000 });
    expect((await stub.adminView())?.lossMicros).toBe(1e12 - 250_000);
  });

  it('credits once per idempotency key', async () => {
    const { stub } = await fundedAccount('0');
    const credit = { amountMicros: 5_000_000, idempotencyKey: 'usdc:0xabc:1', source: 'usdc' as const };
    const results = await Promise.all([stub.credit(credit), stub.credit(credit), stub.credit(credit)]);
    expect(results.filter((r) => r?.applied)).toHaveLength(1);
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 5_000_000, funded: true, expiresAt: null });
  });

  it('releases holds a crashed caller left open when their time is up', async () => {
    const { stub, keyHash } = await fundedAccount('1');
    const granted = await stub.authorizeHold(hold(keyHash, 250_000, { ttlMs: 1 }));
    if (!granted.ok) throw new Error(granted.reason);
    // The alarm fires on its own; run it by hand too in case it has not yet.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await runDurableObjectAlarm(stub);
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000, heldMicros: 0 });
    expect((await stub.ledgerEntries(1))[0]).toMatchObject({ kind: 'release', holdId: granted.holdId, note: 'expired' });
    // The upstream did the work after all: a late settlement still charges, once.
    expect(await stub.settle(granted.holdId, 1_000)).toMatchObject({ ok: true, applied: true, chargedMicros: 1_000 });
    expect((await stub.snapshot()).balanceMicros).toBe(999_000);
  });

  it('refuses holds past the per-account concurrency ceiling', async () => {
    const { stub, keyHash } = await fundedAccount('10');
    const { MAX_OPEN_HOLDS } = await import('../../durable-objects/account/account');
    const results = await Promise.all(Array.from({ length: MAX_OPEN_HOLDS + 5 }, () => stub.authorizeHold(hold(keyHash, 1))));
    expect(results.filter((r) => r.ok)).toHaveLength(MAX_OPEN_HOLDS);
    expect(results.find((r) => !r.ok)).toMatchObject({ ok: false, reason: 'too_many_holds' });
  });

  it('keeps storage empty for a key naming an account that does not exist', async () => {
    const stub = accountStub(crypto.randomUUID());
    expect(await stub.authorizeHold(hold('0'.repeat(64), 1))).toEqual({ ok: false, reason: 'invalid_key' });
    const tables = await runInDurableObject(stub, (_, state) => state.storage.sql.exec('SELECT name FROM sqlite_master').toArray());
    expect(tables).toEqual([]);
  });
});

describe('key guardrails', () => {
  async function keyWith(guardrails: Record<string, unknown>) {
    const account = await fundedAccount('100');
    const res = await call(`/admin/accounts/${account.account_id}/keys`, bearer(ADMIN_TOKEN, json(guardrails)));
    const { api_key } = (await res.json()) as { api_key: string };
    return { ...account, keyHash: await sha256Hex(api_key) };
  }

  it('refuses a model outside the allowlist', async () => {
    const { stub, keyHash } = await keyWith({ allowed_models: ['openai/gpt-4o-mini'] });
    expect(await stub.authorizeHold(hold(keyHash, 1, { model: 'openai/gpt-4o' }))).toEqual({ ok: false, reason: 'model_not_allowed', model: 'openai/gpt-4o' });
    expect(await stub.authorizeHold(hold(keyHash, 1, { model: 'openai/gpt-4o-mini' }))).toMatchObject({ ok: true });
  });

  it.each([
    ['daily_limit_usd', 'daily_limit'],
    ['monthly_limit_usd', 'monthly_limit'],
    ['total_limit_usd', 'total_limit'],
  ])('counts charges and open holds against %s', async (field, reason) => {
    const { stub, keyHash } = await keyWith({ [field]: '1.00' });
    const first = await stub.authorizeHold(hold(keyHash, 600_000));
    if (!first.ok) throw new Error(first.reason);
    // The open hold already uses 0.60 of the 1.00 limit.
    expect(await stub.authorizeHold(hold(keyHash, 500_000))).toMatchObject({ ok: false, reason, remainingMicros: 400_000 });
    await stub.settle(first.holdId, 550_000);
    expect(await stub.authorizeHold(hold(keyHash, 450_001))).toMatchObject({ ok: false, reason, remainingMicros: 450_000 });
    const fits = await stub.authorizeHold(hold(keyHash, 450_000));
    expect(fits).toMatchObject({ ok: true });
  });

  it('counts what a key spent before it was given a limit, and while it had none', async () => {
    const account = await fundedAccount('100');
    const created = await call(`/admin/accounts/${account.account_id}/keys`, bearer(ADMIN_TOKEN, json({ daily_limit_usd: '5.00' })));
    const { api_key, key } = (await created.json()) as { api_key: string; key: { id: string } };
    const keyHash = await sha256Hex(api_key);
    const { stub } = account;
    const spend = async (micros: number) => {
      const granted = await stub.authorizeHold(hold(keyHash, micros));
      if (!granted.ok) throw new Error(granted.reason);
      await stub.settle(granted.holdId, micros);
    };
    const setLimits = async (limits: Record<string, string | null>) => {
      const res = await call(`/admin/accounts/${account.account_id}/keys/${key.id}`, bearer(ADMIN_TOKEN, { ...json(limits), method: 'PATCH' }));
      expect(res.status).toBe(200);
    };

    await spend(200_000); // counted under the first limit
    await setLimits({ daily_limit_usd: null });
    await spend(300_000); // no limit, no counters
    await setLimits({ daily_limit_usd: '1.00', total_limit_usd: '0.60' });
    expect(await stub.authorizeHold(hold(keyHash, 100_001))).toMatchObject({ ok: false, reason: 'total_limit', remainingMicros: 100_000 });
    await spend(100_000);
    expect(await stub.authorizeHold(hold(keyHash, 1))).toMatchObject({ ok: false, reason: 'total_limit', remainingMicros: 0 });
    await setLimits({ total_limit_usd: null });
    expect(await stub.authorizeHold(hold(keyHash, 400_001))).toMatchObject({ ok: false, reason: 'daily_limit', remainingMicros: 400_000 });
  });

  it('lowers an elastic hold to the key limit rather than refusing it', async () => {
    const { stub, keyHash } = await keyWith({ daily_limit_usd: '0.25' });
    expect(await stub.authorizeHold({ keyHash, minMicros: 1, maxMicros: 1_000_000, purpose: 'test' })).toMatchObject({ ok: true, amountMicros: 250_000 });
  });
});
