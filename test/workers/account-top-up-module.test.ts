import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { drizzle } from 'drizzle-orm/durable-sqlite';
import { describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../../src/accounts/credentials';
import type { OffSessionCharge, OffSessionCharger, OffSessionOutcome } from '../../src/funding/off-session';
import { topUpIdempotencyKey } from '../../src/funding/off-session';
import { ExpiryAlarm } from '../../durable-objects/account/alarm';
import { Ledger } from '../../durable-objects/account/ledger';
import { AccountMemory } from '../../durable-objects/account/memory';
import * as schema from '../../durable-objects/account/schema';
import { SpendCounters } from '../../durable-objects/account/spend';
import { KeyTree } from '../../durable-objects/account/key-tree';
import { AutoTopUp, dailyCapOf, DEFAULT_DAILY_CAP, type DailyCap } from '../../durable-objects/account/top-up';
import { DAY_MS, holdAndSettle, NOW, rows, withAccountModules, type AccountModules } from './account-modules';
import { accountStub, adminCredit, register } from './helpers';

const USD = 1_000_000;
const CARD = { customerId: 'cus_test', paymentMethodId: 'pm_test', brand: 'visa', last4: '4242' };
const RULE = { thresholdMicros: 5 * USD, amountMicros: 20 * USD };

/**
 * Stripe as the top-up sees it: PaymentIntents by idempotency key, so a request sent again under
 * the same key gets the same PaymentIntent and charges nothing more. `answer` decides new ones.
 */
function fakeStripe(answer: (charge: OffSessionCharge) => OffSessionOutcome = (charge) => ({ ok: true, paymentIntentId: `pi_${charge.n}`, amountMicros: charge.amountMicros })) {
  const byKey = new Map<string, OffSessionOutcome>();
  const calls: string[] = [];
  const charge: OffSessionCharger = async (request) => {
    const key = topUpIdempotencyKey(request.accountId, request.n);
    calls.push(key);
    if (!byKey.has(key)) byKey.set(key, answer(request));
    return byKey.get(key)!;
  };
  return { charge, calls, charged: () => [...byKey.values()].filter((outcome) => outcome.ok).length };
}

/**
 * An `AutoTopUp` composed as `AccountDurableObject` composes it, on the modules' memory and ledger,
 * loaded as when the object starts; with `restart`, on a memory and a ledger of its own read from
 * storage, as a new instance of the object after the old one died.
 */
function topUpOver(modules: AccountModules, charge: OffSessionCharger, restart = false, cap?: DailyCap) {
  const db = drizzle(modules.storage, { schema });
  const alarm = new ExpiryAlarm(modules.storage);
  let { memory, ledger } = modules;
  if (restart) {
    memory = new AccountMemory();
    memory.load(modules.storage);
    ledger = new Ledger(modules.storage, db, memory, new SpendCounters(modules.storage, memory.holds, new KeyTree(modules.storage)), alarm);
  }
  const topUp = new AutoTopUp(db, memory, alarm, ledger, charge, cap);
  topUp.load();
  return { topUp, memory };
}

/** Spends `micros` through the modules' ledger, then lets the rule look at the balance, as a settlement does. */
function spend(modules: AccountModules, topUp: AutoTopUp, micros: number, now = NOW): boolean {
  holdAndSettle(modules, micros, now);
  return topUp.afterCharge(modules.memory.account!.balance_micros, now);
}

const credits = (modules: AccountModules) => rows(modules.storage, "SELECT amount_micros, source, idempotency_key FROM ledger WHERE kind = 'credit'");

describe('the auto top-up module of the account Durable Object', () => {
  it('starts one top-up when a charge leaves the balance below the threshold, and no other while it is pending', () =>
    withAccountModules({ balanceMicros: 10 * USD }, async (modules) => {
      const { topUp } = topUpOver(modules, fakeStripe().charge);
      topUp.saveCard(CARD, NOW);
      expect(topUp.enable(RULE, NOW).ok).toBe(true);
      expect(spend(modules, topUp, 3 * USD)).toBe(false); // $7 left
      expect(spend(modules, topUp, 3 * USD)).toBe(true); // $4 left: below $5
      expect(spend(modules, topUp, 1 * USD)).toBe(false);
      expect(rows(modules.storage, 'SELECT n, status, amount_micros, customer_id, payment_method_id FROM top_ups')).toEqual([
        { n: 1, status: 'pending', amount_micros: 20 * USD, customer_id: 'cus_test', payment_method_id: 'pm_test' },
      ]);
      expect(topUp.view().pending).toMatchObject({ n: 1, amountMicros: 20 * USD });
    }));

  it('credits a success once under stripe:<payment intent>, even when the alarm runs twice at once and again after', () =>
    withAccountModules({ balanceMicros: 6 * USD }, async (modules) => {
      const stripe = fakeStripe();
      const { topUp, memory } = topUpOver(modules, stripe.charge);
      topUp.saveCard(CARD, NOW);
      topUp.enable(RULE, NOW);
      holdAndSettle(modules, 2 * USD);
      expect(topUp.afterCharge(4 * USD, NOW)).toBe(true);
      await Promise.all([topUp.runDue(NOW), topUp.runDue(NOW)]);
      await topUp.runDue(NOW + 1000);
      expect(stripe.calls).toEqual(['topup:acct_test:1']);
      expect(credits(modules)).toEqual([{ amount_micros: 20 * USD, source: 'card', idempotency_key: 'stripe:pi_1' }]);
      expect(memory.account!.balance_micros).toBe(24 * USD);
      expect(topUp.view()).toMatchObject({ enabled: true, pending: null, recent: [{ n: 1, status: 'succeeded', paymentIntentId: 'pi_1' }] });
    }));

  it('charges once when the object dies while Stripe answers: the restarted alarm sends the same idempotency key', () =>
    withAccountModules({ balanceMicros: 6 * USD }, async (modules) => {
      const stripe = fakeStripe();
      // The first instance asks Stripe and dies before the answer arrives.
      const lost: OffSessionCharger = (request) => (void stripe.charge(request), new Promise<OffSessionOutcome>(() => {}));
      const first = topUpOver(modules, lost);
      first.topUp.saveCard(CARD, NOW);
      first.topUp.enable(RULE, NOW);
      holdAndSettle(modules, 2 * USD);
      first.topUp.afterCharge(4 * USD, NOW);
      void first.topUp.runDue(NOW);

      const restarted = topUpOver(modules, stripe.charge, true);
      expect(restarted.topUp.view().pending).toMatchObject({ n: 1 });
      await restarted.topUp.runDue(NOW + 5000);
      await restarted.topUp.runDue(NOW + 6000);
      expect(stripe.calls).toEqual(['topup:acct_test:1', 'topup:acct_test:1']);
      expect(stripe.charged()).toBe(1);
      expect(credits(modules)).toEqual([{ amount_micros: 20 * USD, source: 'card', idempotency_key: 'stripe:pi_1' }]);
      expect(rows(modules.storage, 'SELECT status, attempts FROM top_ups')).toEqual([{ status: 'succeeded', attempts: 2 }]);
    }));

  it('records a declined card, turns auto top-up off and never charges it again until the human acts', () =>
    withAccountModules({ balanceMicros: 6 * USD }, async (modules) => {
      const declined: OffSessionOutcome = { ok: false, retry: false, code: 'card_declined', message: 'Your card was declined.', paymentIntentId: 'pi_declined' };
      const stripe = fakeStripe(() => declined);
      const { topUp, memory } = topUpOver(modules, stripe.charge);
      topUp.saveCard(CARD, NOW);
      topUp.enable(RULE, NOW);
      holdAndSettle(modules, 2 * USD);
      topUp.afterCharge(memory.account!.balance_micros, NOW);
      await topUp.runDue(NOW);
      expect(topUp.view()).toMatchObject({
        enabled: false,
        pending: null,
        stoppedBy: { n: 1, status: 'failed', failureCode: 'card_declined', failureMessage: 'Your card was declined.', paymentIntentId: 'pi_declined' },
      });
      // More spending below the threshold, and the alarm again: nothing is charged.
      holdAndSettle(modules, 1 * USD);
      expect(topUp.afterCharge(3 * USD, NOW + 1000)).toBe(false);
      await topUp.runDue(NOW + 60_000);
      expect(stripe.calls).toEqual(['topup:acct_test:1']);
      expect(credits(modules)).toEqual([]);

      // The human turns it back on: the failure is cleared and the next charge below the threshold starts top-up 2.
      expect(topUp.enable(RULE, NOW + 2000).ok).toBe(true);
      expect(topUp.view().stoppedBy).toBeNull();
      expect(topUp.afterCharge(3 * USD, NOW + 3000)).toBe(true);
      expect(topUp.view().pending).toMatchObject({ n: 2 });
    }));

  it('starts again when the human saves another card after a failure', () =>
    withAccountModules({ balanceMicros: 6 * USD }, async (modules) => {
      const stripe = fakeStripe(() => ({ ok: false, retry: false, code: 'card_declined', message: 'Your card was declined.', paymentIntentId: null }));
      const { topUp } = topUpOver(modules, stripe.charge);
      topUp.saveCard(CARD, NOW);
      topUp.enable(RULE, NOW);
      topUp.afterCharge(4 * USD, NOW);
      await topUp.runDue(NOW);
      expect(topUp.view().enabled).toBe(false);
      expect(topUp.saveCard({ ...CARD, paymentMethodId: 'pm_new', last4: '5556' }, NOW + 1000)).toMatchObject({ enabled: true, stoppedBy: null, card: { last4: '5556' } });
      // Turned off by the human, a new card does not turn it on.
      topUp.disable(NOW + 2000);
      expect(topUp.saveCard(CARD, NOW + 3000).enabled).toBe(false);
    }));

  it('asks Stripe again with the same key while it cannot be reached, with backoff, then gives up and stops', () =>
    withAccountModules({ balanceMicros: 6 * USD }, async (modules) => {
      const calls: number[] = [];
      const keys = new Set<string>();
      const unreachable: OffSessionCharger = async (request) => {
        keys.add(topUpIdempotencyKey(request.accountId, request.n));
        return { ok: false, retry: true, message: 'connect ECONNREFUSED' };
      };
      const { topUp } = topUpOver(modules, async (request) => (calls.push(Date.now()), unreachable(request)));
      topUp.saveCard(CARD, NOW);
      topUp.enable(RULE, NOW);
      topUp.afterCharge(4 * USD, NOW);
      let at = NOW;
      for (const wait of [0, 60_000, 120_000, 240_000, 480_000, 960_000]) {
        at += wait;
        await topUp.runDue(at - 1); // not due yet: no call
        await topUp.runDue(at);
      }
      expect(calls).toHaveLength(6);
      expect([...keys]).toEqual(['topup:acct_test:1']);
      expect(topUp.view()).toMatchObject({ enabled: false, pending: null, stoppedBy: { n: 1, failureCode: 'stripe_unreachable' } });
    }));

  it('refuses a rule without a saved card, or with an amount or threshold out of range', () =>
    withAccountModules({}, async (modules) => {
      const { topUp } = topUpOver(modules, fakeStripe().charge);
      expect(topUp.enable(RULE, NOW)).toEqual({ ok: false, reason: 'no_card' });
      topUp.saveCard(CARD, NOW);
      expect(topUp.enable({ ...RULE, amountMicros: 4_990_000 }, NOW)).toEqual({ ok: false, reason: 'invalid_amount' });
      expect(topUp.enable({ ...RULE, amountMicros: 1_000_010_000 }, NOW)).toEqual({ ok: false, reason: 'invalid_amount' });
      expect(topUp.enable({ ...RULE, amountMicros: 5_000_001 }, NOW)).toEqual({ ok: false, reason: 'invalid_amount' });
      expect(topUp.enable({ ...RULE, thresholdMicros: -1 }, NOW)).toEqual({ ok: false, reason: 'invalid_threshold' });
      expect(topUp.enable({ ...RULE, thresholdMicros: 0 }, NOW).ok).toBe(true);
    }));
});

describe('auto top-up in the account Durable Object', () => {
  it('starts exactly one top-up when 20 concurrent settlements cross the threshold, and the alarm stops a failing one for good', async () => {
    const agent = await register();
    expect((await adminCredit(agent.account_id, '10')).status).toBe(200);
    const stub = accountStub(agent.account_id);
    const keyHash = await sha256Hex(agent.api_key);
    await stub.saveTopUpCard(CARD);
    expect(await stub.enableTopUp(RULE)).toMatchObject({ ok: true });

    const holds = await Promise.all(Array.from({ length: 20 }, () => stub.authorizeHold({ keyHash, minMicros: 400_000, maxMicros: 400_000, purpose: 'test' })));
    await Promise.all(holds.map((hold) => hold.ok && stub.settle(hold.holdId, 400_000))); // $10 - $8 = $2
    expect((await stub.snapshot()).balanceMicros).toBe(2 * USD);
    const started = await runInDurableObject(stub, (_, { storage }) => rows(storage, 'SELECT n FROM top_ups'));
    expect(started).toEqual([{ n: 1 }]);

    // The alarm, set for now, charges it. No Stripe key in this Worker: the charge fails for good,
    // the rule stops, and nothing is tried again.
    await runDurableObjectAlarm(stub);
    await vi.waitUntil(async () => (await stub.topUpView())?.pending === null);
    expect(await stub.topUpView()).toMatchObject({ enabled: false, pending: null, stoppedBy: { n: 1, failureCode: 'card_payments_off' } });
    const more = await stub.authorizeHold({ keyHash, minMicros: 100_000, maxMicros: 100_000, purpose: 'test' });
    if (more.ok) await stub.settle(more.holdId, 100_000);
    await runDurableObjectAlarm(stub);
    const after = await runInDurableObject(stub, (_, { storage }) => rows(storage, 'SELECT n, status FROM top_ups'));
    expect(after).toEqual([{ n: 1, status: 'failed' }]);
    expect((await stub.snapshot()).balanceMicros).toBe(1_900_000);
  });

  it.each([
    ['dollars', { maxMicros: 50 * USD, maxCount: 10 }, 'at most $50.00 a day (UTC); $40.00 was charged today'],
    ['charges', { maxMicros: 10_000 * USD, maxCount: 2 }, 'at most 2 times a day (UTC); 2 top-ups were made today'],
  ] as const)('refuses a top-up past the daily ceiling in %s: recorded, not charged, the rule stopped; the next UTC day charges again', (_, cap, message) =>
    withAccountModules({ balanceMicros: 6 * USD }, async (modules) => {
      const stripe = fakeStripe();
      const { topUp, memory } = topUpOver(modules, stripe.charge, false, cap);
      topUp.saveCard(CARD, NOW);
      topUp.enable(RULE, NOW);
      // Two top-ups of $20 go through: the balance falls below $5 after each.
      expect(spend(modules, topUp, 2 * USD)).toBe(true);
      await topUp.runDue(NOW);
      expect(spend(modules, topUp, 20 * USD)).toBe(true);
      await topUp.runDue(NOW);
      // The third would pass the ceiling: it is recorded as failed, Stripe is never asked.
      expect(spend(modules, topUp, 20 * USD, NOW + 1000)).toBe(false);
      await topUp.runDue(NOW + 1000);
      expect(stripe.calls).toHaveLength(2);
      expect(memory.account!.balance_micros).toBe(4 * USD);
      expect(topUp.view()).toMatchObject({ enabled: false, pending: null, stoppedBy: { n: 3, status: 'failed', failureCode: 'daily_cap_reached', amountMicros: 20 * USD } });
      expect(topUp.view().stoppedBy?.failureMessage).toContain(message);
      // A further charge the same day starts nothing: the rule is off until the human acts.
      expect(spend(modules, topUp, 1 * USD, NOW + 2000)).toBe(false);
      // The next UTC day, turned on again, it charges.
      const tomorrow = NOW - (NOW % DAY_MS) + DAY_MS + 1000;
      expect(topUp.enable(RULE, tomorrow).ok).toBe(true);
      expect(spend(modules, topUp, 1 * USD, tomorrow)).toBe(true);
      await topUp.runDue(tomorrow);
      expect(stripe.calls).toHaveLength(3);
    }));

  it('reads its daily ceiling from AUTO_TOP_UP_DAILY_MAX_USD and AUTO_TOP_UP_DAILY_MAX_COUNT, with defaults for missing or malformed values', () => {
    expect(dailyCapOf({})).toEqual(DEFAULT_DAILY_CAP);
    expect(DEFAULT_DAILY_CAP).toEqual({ maxMicros: 2_000 * USD, maxCount: 10 });
    expect(dailyCapOf({ AUTO_TOP_UP_DAILY_MAX_USD: '150.5', AUTO_TOP_UP_DAILY_MAX_COUNT: '3' })).toEqual({ maxMicros: 150_500_000, maxCount: 3 });
    expect(dailyCapOf({ AUTO_TOP_UP_DAILY_MAX_USD: 'lots', AUTO_TOP_UP_DAILY_MAX_COUNT: '-1' })).toEqual(DEFAULT_DAILY_CAP);
  });
});
