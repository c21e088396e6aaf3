import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { AccountOp } from '../../durable-objects/account/types';
import { FORWARD_AFTER_MS, type JournalEntry } from '../../durable-objects/settlement-journal/journal';
import { AccountClient, RTT_SAMPLES_NEEDED } from '../../src/accounts/account-client';
import { settleJobHold } from '../../src/accounts/billed';
import { sha256Hex } from '../../src/accounts/credentials';
import { JOURNAL_FROM_RTT_MS, JOURNAL_SHARDS, journalName, journalPays, settleDurably } from '../../src/accounts/settlement';
import { accountStub, ADMIN_TOKEN, adminCredit, call, json, register } from './helpers';

/**
 * Issue #14 with issue #10's rule: far from its account, a charge is durable in a journal near
 * the Worker before its answer leaves, and the journal charges it once, whether or not the
 * Worker's own settlement arrived.
 */

async function fundedAccount(usd: string) {
  const account = await register();
  expect((await adminCredit(account.account_id, usd)).status).toBe(200);
  return { accountId: account.account_id, stub: accountStub(account.account_id), keyHash: await sha256Hex(account.api_key) };
}

async function openHold(stub: ReturnType<typeof accountStub>, keyHash: string, micros: number) {
  const granted = await stub.authorizeHold({ keyHash, minMicros: micros, maxMicros: micros, purpose: 'chat:test/model', requestId: `req_${crypto.randomUUID()}` });
  if (!granted.ok) throw new Error(granted.reason);
  return granted.holdId;
}

/** A journal of its own per test, so that alarms of other tests never meet these entries. */
const journalOf = () => env.SETTLEMENT_JOURNAL.get(env.SETTLEMENT_JOURNAL.idFromName(`test:${crypto.randomUUID()}`));
type Journal = ReturnType<typeof journalOf>;

/**
 * An entry stored `ageMs` ago whose first forward never ran: what a journal evicted right after
 * its write holds (an injected clock: the alarm sends entries FORWARD_AFTER_MS old).
 */
async function strand(journal: Journal, entry: JournalEntry, ageMs = FORWARD_AFTER_MS) {
  await runInDurableObject(journal, (_, state) => state.storage.put(`settle:${entry.holdId}`, { ...entry, at: Date.now() - ageMs, attempts: 0 }));
}

/** Waits until the journal has forwarded everything (its forward runs after `record` returns). */
async function drained(journal: Journal) {
  for (let i = 0; i < 100 && (await journal.pending()).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(await journal.pending()).toEqual([]);
}

async function charges(stub: ReturnType<typeof accountStub>, holdId: string) {
  return (await stub.ledgerEntries(50)).filter((row) => row.kind === 'charge' && row.holdId === holdId);
}


/** An env whose account Durable Objects answer every call but settlements (an overloaded or unreachable object). */
function refusingSettlements(): Env {
  return {
    ...env,
    ACCOUNT: {
      idFromName: (name: string) => env.ACCOUNT.idFromName(name),
      get: (id: DurableObjectId) => ({
        apply: (ops: AccountOp[]) => (ops.some((op) => op.op === 'settle') ? Promise.reject(new Error('overloaded')) : env.ACCOUNT.get(id).apply(ops)),
      }),
    },
  } as unknown as Env;
}
describe('settlement journal', () => {
  it('sends a recorded settlement to its account, and charges it once however often it is recorded', async () => {
    const { accountId, stub, keyHash } = await fundedAccount('1');
    const holdId = await openHold(stub, keyHash, 50_000);
    const journal = journalOf();
    await journal.record({ accountId, holdId, chargeMicros: 1_234 });
    await journal.record({ accountId, holdId, chargeMicros: 1_234 }); // a retried call
    await drained(journal);
    expect(await charges(stub, holdId)).toMatchObject([{ amountMicros: -1_234 }]);
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000 - 1_234, heldMicros: 0 });
  });

  it("lets the answer leave first, then sends each account's settlements on together", async () => {
    const a = await fundedAccount('1');
    const b = await fundedAccount('1');
    const holds = [await openHold(a.stub, a.keyHash, 50_000), await openHold(a.stub, a.keyHash, 50_000), await openHold(b.stub, b.keyHash, 50_000)];
    const journal = journalOf();
    await Promise.all([
      journal.record({ accountId: a.accountId, holdId: holds[0]!, chargeMicros: 100 }),
      journal.record({ accountId: a.accountId, holdId: holds[1]!, chargeMicros: 200 }),
      journal.record({ accountId: b.accountId, holdId: holds[2]!, chargeMicros: 300 }),
    ]);
    // Stored, answered, not yet sent: GATHER_MS has not passed.
    expect(await journal.pending()).toHaveLength(3);
    expect(await charges(a.stub, holds[0]!)).toEqual([]);
    await drained(journal);
    expect(await a.stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000 - 300, heldMicros: 0 });
    expect(await b.stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000 - 300, heldMicros: 0 });
  });

  it('charges from its alarm a settlement whose first forward was lost, once, even if the Worker settled too', async () => {
    const { accountId, stub, keyHash } = await fundedAccount('1');
    const lost = await openHold(stub, keyHash, 50_000);
    const alsoDirect = await openHold(stub, keyHash, 50_000);
    const journal = journalOf();
    await strand(journal, { accountId, holdId: lost, chargeMicros: 700 });
    await strand(journal, { accountId, holdId: alsoDirect, chargeMicros: 800 });
    await stub.apply([{ op: 'settle', holdId: alsoDirect, chargeMicros: 800 }]);
    // An alarm set for later, run now: one set for now may fire on its own first (a loaded machine).
    await runInDurableObject(journal, (_, state) => state.storage.setAlarm(Date.now() + 60_000));
    expect(await runDurableObjectAlarm(journal)).toBe(true);
    expect(await journal.pending()).toEqual([]);
    // The alarm again (a retried delivery) charges nothing more.
    await strand(journal, { accountId, holdId: lost, chargeMicros: 700 });
    await runInDurableObject(journal, (_, state) => state.storage.setAlarm(Date.now() + 60_000));
    await runDurableObjectAlarm(journal);
    expect(await charges(stub, lost)).toMatchObject([{ amountMicros: -700 }]);
    expect(await charges(stub, alsoDirect)).toHaveLength(1);
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000 - 1_500, heldMicros: 0 });
  });

  it('keeps an entry that is not yet due, with an alarm set for it', async () => {
    const { accountId, stub, keyHash } = await fundedAccount('1');
    const holdId = await openHold(stub, keyHash, 50_000);
    const journal = journalOf();
    await strand(journal, { accountId, holdId, chargeMicros: 300 }, 1_000);
    await runInDurableObject(journal, (_, state) => state.storage.setAlarm(Date.now() + 60_000));
    await runDurableObjectAlarm(journal);
    expect(await journal.pending()).toHaveLength(1);
    expect(await charges(stub, holdId)).toEqual([]);
    const alarm = await runInDurableObject(journal, (_, state) => state.storage.getAlarm());
    expect(alarm).toBeGreaterThan(Date.now() + FORWARD_AFTER_MS - 2_000);
  });

  it('drops a settlement its account refuses (an unknown hold) instead of retrying it forever', async () => {
    const { accountId, stub } = await fundedAccount('1');
    const journal = journalOf();
    await journal.record({ accountId, holdId: 'hold_unknown', chargeMicros: 500 });
    await drained(journal);
    expect((await stub.snapshot()).balanceMicros).toBe(1_000_000);
  });
});

describe('settleDurably', () => {
  it('far from the account: answers once the journal has it, and the charge lands once', async () => {
    const { accountId, stub, keyHash } = await fundedAccount('1');
    const holdId = await openHold(stub, keyHash, 50_000);
    const account = new AccountClient(env, accountId);
    await account.authenticate(keyHash); // this isolate has seen the balance
    const journal = journalOf();
    const settled = await settleDurably({ account, accountId, holdId, chargeMicros: 2_000.4, far: true, journal: () => journal });
    // The isolate's view: what the account last said, minus this charge.
    expect(settled).toEqual({ costMicros: 2_000, balanceMicros: 998_000 });
    await drained(journal);
    expect(await charges(stub, holdId)).toMatchObject([{ amountMicros: -2_000 }]);
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 998_000, heldMicros: 0 });
  });

  it('near the account: one call to it, nothing journaled, the exact balance stated', async () => {
    const { accountId, stub, keyHash } = await fundedAccount('1');
    const holdId = await openHold(stub, keyHash, 50_000);
    const account = new AccountClient(env, accountId);
    const journal = journalOf();
    const settled = await settleDurably({ account, accountId, holdId, chargeMicros: 900, far: false, journal: () => journal });
    expect(settled).toEqual({ costMicros: 900, balanceMicros: 999_100 });
    expect(await journal.pending()).toEqual([]);
  });

  it('near the account but unable to reach it: the journal takes the settlement, and it lands once', async () => {
    const { accountId, stub, keyHash } = await fundedAccount('1');
    const holdId = await openHold(stub, keyHash, 50_000);
    const unreachable = refusingSettlements();
    const account = new AccountClient(unreachable, accountId);
    await account.authenticate(keyHash);
    const journal = journalOf();
    const settled = await settleDurably({ account, accountId, holdId, chargeMicros: 700, far: false, journal: () => journal });
    expect(settled).toEqual({ costMicros: 700, balanceMicros: 999_300 });
    await drained(journal);
    expect(await charges(stub, holdId)).toMatchObject([{ amountMicros: -700 }]);
  });

  it('far from the account but unable to reach the journal: the account itself takes the settlement', async () => {
    const { accountId, stub, keyHash } = await fundedAccount('1');
    const holdId = await openHold(stub, keyHash, 50_000);
    const account = new AccountClient(env, accountId);
    const down = { record: () => Promise.reject(new Error('journal unreachable')) };
    const settled = await settleDurably({ account, accountId, holdId, chargeMicros: 800, far: true, journal: () => down });
    expect(settled).toEqual({ costMicros: 800, balanceMicros: 999_200 });
    expect(await charges(stub, holdId)).toMatchObject([{ amountMicros: -800 }]);
  });

  it("settles a deferred job's hold with its account first, and through the journal when the account does not acknowledge", async () => {
    const { accountId, stub, keyHash } = await fundedAccount('1');
    const direct = await openHold(stub, keyHash, 50_000);
    expect(await settleJobHold(env, accountId, direct, 600)).toEqual({ costMicros: 600, balanceMicros: 999_400 });
    expect(await charges(stub, direct)).toMatchObject([{ amountMicros: -600 }]);
    const journaled = await openHold(stub, keyHash, 50_000);
    const unreachable = refusingSettlements();
    expect((await settleJobHold(unreachable, accountId, journaled, 700)).costMicros).toBe(700);
    await drained(env.SETTLEMENT_JOURNAL.get(env.SETTLEMENT_JOURNAL.idFromName(journalName(undefined, accountId))));
    expect(await charges(stub, journaled)).toMatchObject([{ amountMicros: -700 }]);
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000 - 1_300, heldMicros: 0 });
  });

  it('passes on a refusal from the account without journaling it', async () => {
    const { accountId, stub, keyHash } = await fundedAccount('1');
    const holdId = await openHold(stub, keyHash, 50_000);
    expect((await stub.release(holdId)).released).toBe(true);
    const journal = journalOf();
    const account = new AccountClient(env, accountId);
    await expect(settleDurably({ account, accountId, holdId, chargeMicros: 800, far: false, journal: () => journal })).rejects.toThrow(/hold_released/);
    expect(await journal.pending()).toEqual([]);
  });

  it('tells no distance before RTT_SAMPLES_NEEDED round trips, so a cold isolate settles with the account itself', async () => {
    const { accountId, keyHash } = await fundedAccount('1');
    const account = new AccountClient(env, accountId);
    for (let i = 1; i < RTT_SAMPLES_NEEDED; i++) {
      await account.authenticate(keyHash);
      expect(account.roundTripMs, `after ${i}`).toBeUndefined();
    }
    await account.authenticate(keyHash);
    expect(account.roundTripMs).toBeGreaterThanOrEqual(0);
  });

  it('journals from JOURNAL_FROM_RTT_MS on, never before the first round trip', () => {
    expect(journalPays(undefined)).toBe(false);
    expect(journalPays(JOURNAL_FROM_RTT_MS - 1)).toBe(false);
    expect(journalPays(JOURNAL_FROM_RTT_MS)).toBe(true);
    expect(journalPays(230)).toBe(true);
  });

  it('names one journal per location and shard, the same for an account every time', () => {
    const id = crypto.randomUUID();
    expect(journalName('SYD', id)).toBe(journalName('SYD', id));
    expect(journalName('SYD', id)).toMatch(new RegExp(`^SYD:[0-${JOURNAL_SHARDS - 1}]$`));
    expect(journalName(undefined, id)).toMatch(/^local:\d$/);
    const shards = new Set(Array.from({ length: 200 }, () => journalName('IAD', crypto.randomUUID())));
    expect(shards.size).toBe(JOURNAL_SHARDS);
  });
});

describe('a member\'s hold in its organization (D29)', () => {
  /** An organization with $1 and a member (auto-approved) holding `micros` there; the hold id names the organization. */
  async function memberHold(micros: number) {
    const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };
    const { organization_id: organizationId } = (await (await call('/admin/organizations', json({ name: 'journal' }, admin))).json()) as { organization_id: string };
    expect((await adminCredit(organizationId, '1')).status).toBe(200);
    const { invite_code } = (await (await call(`/admin/organizations/${organizationId}/invites`, json({ auto_approve: true }, admin))).json()) as { invite_code: string };
    const member = await fundedAccount('1');
    const joined = await member.stub.joinOrganization(member.keyHash, organizationId, await sha256Hex(invite_code));
    expect(joined).toMatchObject({ ok: true, status: 'active' });
    const holdId = await openHold(member.stub, member.keyHash, micros);
    expect(holdId).toMatch(/^oh_/);
    return { member, org: accountStub(organizationId), holdId };
  }

  it('is journaled for the organization and charged there once, whichever account the Worker named', async () => {
    const { member, org, holdId } = await memberHold(50_000);
    const journal = journalOf();
    const settled = await settleDurably({ account: new AccountClient(env, member.accountId), accountId: member.accountId, holdId, chargeMicros: 2_000, far: true, journal: () => journal });
    expect(settled.costMicros).toBe(2_000);
    await drained(journal);
    expect(await charges(org, holdId)).toMatchObject([{ amountMicros: -2_000 }]);
    expect(await org.snapshot()).toMatchObject({ balanceMicros: 998_000, heldMicros: 0 });
    expect(await member.stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000, heldMicros: 0 });
  });

  it('sends an entry that names the member to the organization that holds the hold', async () => {
    const { member, org, holdId } = await memberHold(50_000);
    const journal = journalOf();
    await journal.record({ accountId: member.accountId, holdId, chargeMicros: 1_500 });
    await drained(journal);
    expect(await charges(org, holdId)).toMatchObject([{ amountMicros: -1_500 }]);
  });
});
