import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { database } from '../../src/db';
import { closeCardPayment, markCardProcessing, openCardPayment } from '../../src/db/funding';
import { CHECKOUT_LIFETIME_MS, UNCLAIMED_CARD_TOTAL_MICROS } from '../../src/funding/card-checkout';
import { STRIPE_WEBHOOK_MAX_BYTES } from '../../src/routes/funding/stripe-webhook';
import { expectError } from './helpers';

const USD = 1_000_000;
const NOW = Date.UTC(2026, 10, 30, 12);

/**
 * The unclaimed account's $500 card total as D1 counts it (one statement per payment opened):
 * open payments until their Checkout Session expires, payments completed with a delayed method
 * (`processing`) until their payment succeeds or fails, whatever their expiry, and paid ones.
 */
describe('the unclaimed card total', () => {
  const db = () => database(env);
  let n = 0;
  const open = (accountId: string, usd: number, now: number) => {
    const id = `cp_cap_${++n}_${crypto.randomUUID().slice(0, 8)}`;
    const row = { id, accountId, amountMicros: usd * USD, status: 'open' as const, sessionId: null, createdAt: now, expiresAt: now + CHECKOUT_LIFETIME_MS, paidAt: null };
    return openCardPayment(db(), row, UNCLAIMED_CARD_TOTAL_MICROS, now).then((opened) => ({ id, opened }));
  };

  it('counts a processing payment past its expiry until its payment fails; an open one only until it expires', async () => {
    const account = crypto.randomUUID();
    const processing = await open(account, 250, NOW);
    const unpaid = await open(account, 250, NOW);
    expect([processing.opened, unpaid.opened]).toEqual([true, true]);
    await markCardProcessing(db(), processing.id, `cs_${processing.id}`);
    expect((await open(account, 5, NOW)).opened).toBe(false);

    // Both sessions are past their expiry: the unpaid one no longer counts, the processing one does.
    const later = NOW + CHECKOUT_LIFETIME_MS + 60_000;
    expect((await open(account, 250, later)).opened).toBe(true);
    expect((await open(account, 5, later)).opened).toBe(false);

    // Its delayed payment failed (`checkout.session.async_payment_failed`): it stops counting.
    await closeCardPayment(db(), processing.id);
    expect((await open(account, 5, later)).opened).toBe(true);
  });

  it('frees an unpaid session when checkout.session.expired arrives, before its expiry', async () => {
    const account = crypto.randomUUID();
    const first = await open(account, 250, NOW);
    await open(account, 250, NOW);
    expect((await open(account, 5, NOW)).opened).toBe(false);
    await closeCardPayment(db(), first.id);
    expect((await open(account, 250, NOW)).opened).toBe(true);
  });
});

describe('POST /webhooks/stripe', () => {
  const app = createApp();
  const stripeEnv = { ...env, STRIPE_SECRET_KEY: 'sk_test_cap', STRIPE_WEBHOOK_SECRET: 'whsec_cap' } as Env;

  it(`answers 413 for a body over ${STRIPE_WEBHOOK_MAX_BYTES} bytes without reading the rest of it`, async () => {
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    // 64 MiB offered, with no Content-Length: the cap must stop reading, not count what it has read.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 64 * 1024 * 1024) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await app.fetch(new Request('https://gateway.test/webhooks/stripe', { method: 'POST', body, headers: { 'Stripe-Signature': 't=1,v1=x' } }), stripeEnv);
    await expectError(res, 413, 'request_too_large', 'invalid_request_error');
    expect(pulled).toBeLessThan(STRIPE_WEBHOOK_MAX_BYTES + 1024 * 1024);
  });

  it('answers 413 from the declared Content-Length alone', async () => {
    const res = await app.fetch(
      new Request('https://gateway.test/webhooks/stripe', { method: 'POST', body: 'x'.repeat(STRIPE_WEBHOOK_MAX_BYTES + 1), headers: { 'Stripe-Signature': 't=1,v1=x' } }),
      stripeEnv,
    );
    await expectError(res, 413, 'request_too_large', 'invalid_request_error');
  });
});
