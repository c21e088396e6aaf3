import { runDurableObjectAlarm } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { Visitor } from './claim-helpers';
import { charge, send, signedInOwner } from './dashboard-helpers';
import { accountStub } from './helpers';

/**
 * The auto top-up page as a signed-in human meets it inside workerd (no Stripe key here, so no
 * card can be saved through Checkout: the card is stored through the Durable Object as the
 * webhook stores it). Checkout itself, and the charges, are in test/node/top-up.test.ts.
 */

const CARD = { customerId: 'cus_page', paymentMethodId: 'pm_page', brand: 'visa', last4: '4242' };

describe('/dashboard/top-up', () => {
  it('sends a person without a session to sign in, for the page and its forms', async () => {
    const stranger = new Visitor(undefined, send);
    for (const read of [stranger.get('/dashboard/top-up'), stranger.post('/dashboard/top-up', { threshold_usd: '5', amount_usd: '20' }), stranger.post('/dashboard/top-up/card', { amount_usd: '20' })]) {
      const { res } = await read;
      expect(res.status).toBe(303);
      expect(res.headers.get('Location')).toBe('/signin');
    }
  });

  it('shows the page under the strict CSP, and refuses the rule until a card is saved', async () => {
    const { visitor } = await signedInOwner();
    const page = await visitor.get('/dashboard/top-up');
    expect(page.res.status).toBe(200);
    expect(page.res.headers.get('Content-Security-Policy')).toContain("default-src 'none'");
    expect(page.html).toContain('No card is saved yet.');
    expect(page.html).toContain('Card payments are not available on this gateway.');
    const refused = await visitor.post('/dashboard/top-up', { threshold_usd: '5', amount_usd: '20' });
    expect(refused.res.status).toBe(400);
    expect(refused.html).toContain('Save a card first');
  });

  it('refuses a form without the page’s CSRF token', async () => {
    const { visitor, agent } = await signedInOwner();
    await accountStub(agent.account_id).saveTopUpCard(CARD);
    await visitor.get('/dashboard/top-up');
    const forged = await visitor.post('/dashboard/top-up', { threshold_usd: '5', amount_usd: '20', csrf: 'x'.repeat(32) });
    expect(forged.res.status).toBe(400);
    expect(JSON.parse(forged.html)).toMatchObject({ error: { param: 'csrf' } });
    expect((await accountStub(agent.account_id).topUpView())?.enabled).toBe(false);
  });

  it('turns the rule on with a saved card, names a wrong field, and turns it off', async () => {
    const { visitor, agent } = await signedInOwner();
    const stub = accountStub(agent.account_id);
    await stub.saveTopUpCard(CARD);
    expect((await visitor.get('/dashboard/top-up')).html).toContain('Visa •••• 4242 is saved for auto top-up.');

    const wrong = await visitor.post('/dashboard/top-up', { threshold_usd: '5', amount_usd: '2000' });
    expect(wrong.res.status).toBe(400);
    expect(wrong.html).toMatch(/id="amount-usd-error"[^>]*>Enter an amount from \$5 to \$1,000/);

    const on = await visitor.post('/dashboard/top-up', { threshold_usd: '7.50', amount_usd: '25' });
    expect(on.res.status).toBe(303);
    expect(on.res.headers.get('Location')).toBe('/dashboard/top-up?done=on');
    expect(await stub.topUpView()).toMatchObject({ enabled: true, thresholdMicros: 7_500_000, amountMicros: 25_000_000 });
    expect((await visitor.get('/dashboard/top-up?done=on')).html).toContain('On: when a charge leaves the balance below $7.50, $25.00 is charged to the saved card.');

    const off = await visitor.post('/dashboard/top-up/disable', {});
    expect(off.res.headers.get('Location')).toBe('/dashboard/top-up?done=off');
    expect((await stub.topUpView())?.enabled).toBe(false);
  });

  it('shows a failed top-up prominently, with what to do, until the human turns it on again', async () => {
    const { visitor, agent } = await signedInOwner('10');
    const stub = accountStub(agent.account_id);
    await stub.saveTopUpCard(CARD);
    await stub.enableTopUp({ thresholdMicros: 9_000_000, amountMicros: 20_000_000 });
    await charge(agent.account_id, agent.api_key, 'chat:openai/gpt-4o-mini', 2_000_000);
    // No Stripe key in this Worker: the alarm's charge fails for good.
    await runDurableObjectAlarm(stub);
    await vi.waitUntil(async () => (await stub.topUpView())?.stoppedBy !== null);

    const page = await visitor.get('/dashboard/top-up');
    expect(page.html).toMatch(/<section id="top-up-failure" role="alert"/);
    expect(page.html).toContain('Auto top-up stopped');
    expect(page.html).toContain('Card payments are switched off on this gateway');
    expect(page.html).toContain('<p id="top-up-status">Off.</p>');

    expect((await visitor.post('/dashboard/top-up', { threshold_usd: '9', amount_usd: '20' })).res.status).toBe(303);
    expect((await visitor.get('/dashboard/top-up')).html).not.toContain('top-up-failure');
  });
});
