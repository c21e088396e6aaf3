import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { verifiedEvent, WEBHOOK_TOLERANCE_SECONDS, type StripeRail } from './stripe';
import { StripeApi, stripeForm } from './stripe-api';

const secret = 'whsec_test_secret';
const rail: StripeRail = { client: new StripeApi('sk_test'), webhookSecret: secret, checkoutOrigin: 'https://checkout.stripe.com' };
const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'checkout.session.completed', data: { object: { id: 'cs_1' } } }, null, 2);
/** Signed by the official package, so the check is held to Stripe's own signer. */
const signed = (options: { timestamp?: number; secret?: string } = {}) =>
  Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: options.secret ?? secret,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
    ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
  });

describe('Stripe webhook signatures', () => {
  it('accepts an event signed with the endpoint secret', async () => {
    expect((await verifiedEvent(rail, payload, await signed()))?.id).toBe('evt_1');
  });

  it('refuses another secret, another body, no v1, a stale or future timestamp, and no header', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await verifiedEvent(rail, payload, await signed({ secret: 'whsec_other' }))).toBeNull();
    expect(await verifiedEvent(rail, payload.replace('cs_1', 'cs_2'), await signed())).toBeNull();
    expect(await verifiedEvent(rail, payload, (await signed()).replace('v1=', 'v0='))).toBeNull();
    expect(await verifiedEvent(rail, payload, await signed({ timestamp: now - WEBHOOK_TOLERANCE_SECONDS - 5 }))).toBeNull();
    expect(await verifiedEvent(rail, payload, await signed({ timestamp: now + WEBHOOK_TOLERANCE_SECONDS + 5 }))).toBeNull();
    expect(await verifiedEvent(rail, payload, undefined)).toBeNull();
    expect(await verifiedEvent({ ...rail, webhookSecret: undefined }, payload, await signed())).toBeNull();
  });

  it('accepts any one good v1 among several (a secret being rolled)', async () => {
    const good = await signed();
    const v1 = good.split(',').find((part) => part.startsWith('v1='))!;
    const header = good.replace(v1, `v1=${'0'.repeat(64)},${v1}`);
    expect((await verifiedEvent(rail, payload, header))?.id).toBe('evt_1');
  });
});

describe('Stripe form encoding', () => {
  it('nests objects and arrays in brackets, as the official package does', () => {
    const form = stripeForm({
      mode: 'payment',
      line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 2500, product_data: { name: 'Gateway credit & more' } } }],
      metadata: { account_id: 'a1' },
      expand: ['payment_method'],
      off_session: true,
      customer: undefined,
    });
    expect(form.split('&').map(decodeURIComponent)).toEqual([
      'mode=payment',
      'line_items[0][quantity]=1',
      'line_items[0][price_data][currency]=usd',
      'line_items[0][price_data][unit_amount]=2500',
      'line_items[0][price_data][product_data][name]=Gateway credit & more',
      'metadata[account_id]=a1',
      'expand[0]=payment_method',
      'off_session=true',
    ]);
    expect(form).toContain('Gateway%20credit%20%26%20more');
  });
});
