import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { AccountOp } from '../../durable-objects/account/types';
import { AccountClient, LAZY_MS } from '../../src/accounts/account-client';
import { sha256Hex } from '../../src/accounts/credentials';
import { GatewayError } from '../../src/errors';
import { accountStub, adminCredit, register } from './helpers';

/**
 * The real account Durable Object behind a namespace that records the size of each batch the
 * Worker sends, so the tests see how calls are grouped.
 */
function recordingEnv() {
  const batches: string[][] = [];
  const namespace = {
    idFromName: (name: string) => env.ACCOUNT.idFromName(name),
    get: (id: DurableObjectId) => {
      const stub = env.ACCOUNT.get(id);
      return {
        apply: (ops: AccountOp[]) => {
          batches.push(ops.map((op) => op.op));
          return stub.apply(ops);
        },
      };
    },
  };
  return { env: { ...env, ACCOUNT: namespace } as unknown as Env, batches };
}

async function fundedAccount(usd: string) {
  const account = await register();
  expect((await adminCredit(account.account_id, usd)).status).toBe(200);
  return { accountId: account.account_id, keyHash: await sha256Hex(account.api_key) };
}

const hold = (keyHash: string, micros: number) => ({ keyHash, minMicros: micros, maxMicros: micros, purpose: 'test' });

describe('the account client (group commit per account)', () => {
  it('sends a lone call at once and groups the calls that arrive while it is in flight, in order', async () => {
    const { accountId, keyHash } = await fundedAccount('1'); // covers 10 holds of $0.10
    const recording = recordingEnv();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => new AccountClient(recording.env, accountId).authorizeHold(hold(keyHash, 100_000))),
    );
    expect(recording.batches.map((batch) => batch.length)).toEqual([1, 19]);
    // Applied in arrival order: the first ten are covered, the rest refused.
    expect(results.map((r) => r.ok)).toEqual([...Array(10).fill(true), ...Array(10).fill(false)]);
    expect(results.slice(10).every((r) => !r.ok && r.reason === 'insufficient_credits')).toBe(true);
    expect((await accountStub(accountId).snapshot()).heldMicros).toBe(1_000_000);
  });

  it('lets a lazy settlement ride with the next call, which then sees it', async () => {
    const { accountId, keyHash } = await fundedAccount('1');
    const recording = recordingEnv();
    const first = new AccountClient(recording.env, accountId);
    const granted = await first.authorizeHold(hold(keyHash, 300_000));
    if (!granted.ok) throw new Error(granted.reason);

    const charged = first.settle(granted.holdId, 123_456, { lazy: true });
    expect(first.balanceAfterPendingMicros).toBe(1_000_000 - 123_456);
    const read = await new AccountClient(recording.env, accountId).accountForKey(keyHash);
    expect(read.ok && read.account.balanceMicros).toBe(1_000_000 - 123_456);
    expect(read.ok && read.account.heldMicros).toBe(0);
    expect(await charged).toMatchObject({ ok: true, applied: true, chargedMicros: 123_456 });
    expect(recording.batches).toEqual([['hold'], ['settle', 'account']]);
  });

  it('writes a lazy settlement on its own within LAZY_MS when no other call comes', async () => {
    const { accountId, keyHash } = await fundedAccount('1');
    const client = new AccountClient(recordingEnv().env, accountId);
    const granted = await client.authorizeHold(hold(keyHash, 300_000));
    if (!granted.ok) throw new Error(granted.reason);

    const started = Date.now();
    const settled = await client.settle(granted.holdId, 50_000, { lazy: true });
    expect(settled).toMatchObject({ ok: true, balanceMicros: 950_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(LAZY_MS - 1);
    expect((await accountStub(accountId).snapshot()).balanceMicros).toBe(950_000);
  });

  it('hands out the stub for other calls only after what was queued before is applied', async () => {
    const { accountId, keyHash } = await fundedAccount('1');
    const client = new AccountClient(env, accountId);
    const granted = await client.authorizeHold(hold(keyHash, 300_000));
    if (!granted.ok) throw new Error(granted.reason);
    void client.release(granted.holdId);
    const stub = await client.direct();
    expect((await stub.snapshot()).heldMicros).toBe(0);
  });

  it('answers each call of a batch on its own: one failing call does not fail the others', async () => {
    const { accountId, keyHash } = await fundedAccount('1');
    const reply = await accountStub(accountId).apply([
      { op: 'bogus' } as unknown as AccountOp,
      { op: 'hold', request: hold('0'.repeat(64), 1) },
      { op: 'hold', request: hold(keyHash, 400_000) },
      { op: 'account', keyHash },
    ]);
    expect(reply.results[0]).toEqual({ error: 'unknown call bogus' });
    expect(reply.results[1]).toEqual({ ok: false, reason: 'invalid_key' });
    expect(reply.results[2]).toMatchObject({ ok: true, amountMicros: 400_000, availableMicros: 600_000 });
    expect(reply.results[3]).toMatchObject({ ok: true, account: { balanceMicros: 1_000_000, heldMicros: 400_000 } });
    expect(reply.balanceMicros).toBe(1_000_000);
  });

  it('answers 503 spend_check_unavailable with Retry-After when the account cannot be reached, and nothing is held', async () => {
    const { accountId, keyHash } = await fundedAccount('1');
    // The account's Durable Object as an overloaded or unreachable one answers: every call rejects.
    const unreachable = {
      ...env,
      ACCOUNT: { idFromName: (name: string) => env.ACCOUNT.idFromName(name), get: () => ({ apply: () => Promise.reject(new Error('Durable Object is overloaded.')) }) },
    } as unknown as Env;
    // A fresh isolate would hold no channel for the account: another account id keeps this one's apart.
    const client = new AccountClient(unreachable, `${accountId}-unreachable`);
    for (const call of [() => client.authorizeHold(hold(keyHash, 100_000)), () => client.authenticate(keyHash), () => client.accountForKey(keyHash)]) {
      const err = await call().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(err).toBeInstanceOf(GatewayError);
      expect((err as GatewayError).status).toBe(503);
      expect((err as GatewayError).code).toBe('spend_check_unavailable');
      expect((err as GatewayError).headers()).toEqual({ 'Retry-After': '1' });
    }
    expect(await accountStub(accountId).snapshot()).toMatchObject({ balanceMicros: 1_000_000, heldMicros: 0 });
  });
});
