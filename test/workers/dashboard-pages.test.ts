import { describe, expect, it } from 'vitest';
import { reread, Visitor } from './claim-helpers';
import { charge, firstKeyId, operatorKey, signedInOwner } from './dashboard-helpers';
import { accountStub, expectError } from './helpers';

/**
 * The dashboard's doors: every page and form needs a live session, every form its CSRF token
 * from our own origin, and nothing of one account is readable or changeable from another's
 * session (404, as if it did not exist).
 */

const KEY = 'key_AAAAAAAAAAAAAAAAAAAA';

describe('the dashboard without a session', () => {
  it.each(['/dashboard', '/dashboard/keys', `/dashboard/keys/${KEY}`, '/dashboard/ledger', '/dashboard/ledger.csv', '/dashboard/ledger?key=x&model=y'])(
    'sends GET %s to /signin',
    async (path) => {
      const { res } = await new Visitor().get(path);
      expect(res.status).toBe(303);
      expect(res.headers.get('Location')).toBe('/signin');
    },
  );

  it.each(['/dashboard/keys', `/dashboard/keys/${KEY}/name`, `/dashboard/keys/${KEY}/guardrails`, `/dashboard/keys/${KEY}/rotate`, `/dashboard/keys/${KEY}/revoke`])(
    'sends POST %s to /signin, changing nothing',
    async (path) => {
      const { res } = await new Visitor().post(path, { csrf: 'x'.repeat(32), name: 'sneaky' });
      expect(res.status).toBe(303);
      expect(res.headers.get('Location')).toBe('/signin');
    },
  );
});

describe('the overview', () => {
  it('shows the balance, a bar per model used today in the chart, its numbers, and the funding', async () => {
    const { agent, visitor } = await signedInOwner('10');
    await charge(agent.account_id, agent.api_key, 'chat:openai/gpt-4o-mini', 1_250);
    await charge(agent.account_id, agent.api_key, 'image:openai/gpt-image-1', 40_000);
    await charge(agent.account_id, agent.api_key, 'chat:openai/gpt-4o-mini', 750);
    const { res, html } = await visitor.get('/dashboard');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Security-Policy')).toContain("default-src 'none'");
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(html).toContain('<dd id="balance">$9.96</dd>');
    const today = new Date().toISOString().slice(0, 10);
    expect(html).toMatch(new RegExp(`<rect class="bar" data-model="openai/gpt-image-1" data-day="${today}"`));
    expect(html).toMatch(new RegExp(`<rect class="bar" data-model="openai/gpt-4o-mini" data-day="${today}"`));
    expect(html).toContain(`<title>${today} openai/gpt-4o-mini: $0.002</title>`);
    expect(html).toContain('role="img" aria-labelledby="usage-chart-title usage-chart-desc"');
    expect(html).toContain('$0.04 spent from');
    expect(html).toContain('<td data-label="Method">Operator credit</td>');
    expect(html).toContain('<td data-label="Amount" class="num">$10.00</td>');
    // The navigation, auto top-up included, the current page marked.
    expect(html).toContain('<a href="/dashboard" aria-current="page">Overview</a>');
    expect(html).toContain('<a href="/dashboard/top-up">Auto top-up</a>');
  });

  it('draws an empty chart for an account that spent nothing', async () => {
    const { visitor } = await signedInOwner('1');
    const { html } = await visitor.get('/dashboard');
    expect(html).toContain('No spend from');
    expect(html).not.toContain('class="bar"');
  });
});

describe('CSRF on every dashboard form', () => {
  const forms = [
    ['create a key', () => '/dashboard/keys'],
    ['rename', (id: string) => `/dashboard/keys/${id}/name`],
    ['save guardrails', (id: string) => `/dashboard/keys/${id}/guardrails`],
    ['rotate', (id: string) => `/dashboard/keys/${id}/rotate`],
    ['revoke', (id: string) => `/dashboard/keys/${id}/revoke`],
    ['sign out', () => '/dashboard/signout'],
  ] as const;

  it.each(forms)('refuses “%s” with a wrong token, or from another origin, and changes nothing', async (_, path) => {
    const { agent, visitor } = await signedInOwner();
    const keyId = await firstKeyId(agent.account_id);
    const before = await accountStub(agent.account_id).keys();
    const fields = { name: 'renamed', daily_limit_usd: '1' };
    await expectError(reread(await visitor.post(path(keyId), { ...fields, csrf: 'x'.repeat(32) })), 400, 'invalid_request', 'invalid_request_error', 'csrf');
    await expectError(reread(await visitor.post(path(keyId), fields, { Origin: 'https://attacker.test' })), 400, 'invalid_request', 'invalid_request_error', 'csrf');
    await expectError(reread(await visitor.post(path(keyId), fields, { 'Sec-Fetch-Site': 'cross-site' })), 400, 'invalid_request', 'invalid_request_error', 'csrf');
    expect(await accountStub(agent.account_id).keys()).toEqual(before);
    expect((await visitor.get('/dashboard')).res.status).toBe(200);
  });
});

describe('one account’s session and another account’s keys', () => {
  it('answers 404 for the other account’s key on every page and form, and leaves it as it was', async () => {
    const alice = await signedInOwner();
    const bob = await signedInOwner();
    const aliceKey = await operatorKey(alice.agent.account_id, { name: 'alice-ci', daily_limit_usd: '2.00' });
    await charge(alice.agent.account_id, aliceKey.apiKey, 'chat:openai/gpt-4o', 500, 'req_alice_secret');
    const before = await accountStub(alice.agent.account_id).keys();

    for (const path of [`/dashboard/keys/${aliceKey.id}`, `/dashboard/ledger?key=${aliceKey.id}`, `/dashboard/ledger.csv?key=${aliceKey.id}`]) {
      const { res, html } = await bob.visitor.get(path);
      expect(res.status, path).toBe(404);
      expect(html).not.toContain('alice-ci');
    }
    for (const action of ['name', 'guardrails', 'rotate', 'revoke']) {
      const { res, html } = await bob.visitor.post(`/dashboard/keys/${aliceKey.id}/${action}`, { name: 'pwned', daily_limit_usd: '1000' });
      expect(res.status, action).toBe(404);
      expect(html).not.toContain('ak-');
    }
    expect(await accountStub(alice.agent.account_id).keys()).toEqual(before);
    // Bob's own pages show nothing of Alice's.
    for (const path of ['/dashboard', '/dashboard/keys', '/dashboard/ledger', '/dashboard/ledger.csv']) {
      const { html } = await bob.visitor.get(path);
      expect(html, path).not.toContain('req_alice_secret');
      expect(html, path).not.toContain('alice-ci');
    }
  });
});
