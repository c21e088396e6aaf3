import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIUpstream } from '../upstreams/openai';
import type { Upstream } from '../upstreams/server';
import { ARTIFACTS, claimInBrowser, DESKTOP, fitsWidth, launchBrowser, openTab, PHONE, shownUsd } from './browser';
import { startGateway, type RunningGateway } from './gateway-process';


/**
 * The dashboard as its human uses it, in Debian's Chromium with a virtual passkey authenticator:
 * an agent registers, is funded by the operator and starts a claim; the person claims it with a
 * passkey, signs out and back in with the same passkey, and makes a key limited to one model and a
 * tiny daily limit. The API (a local OpenAI upstream behind the gateway) then refuses that key for
 * another model (403) and past its limit (429); the person revokes it and the next call is 401.
 * The usage chart shows the spend. The same person makes an organization (D29), invites an agent
 * that joins pending through the API, approves it in the page, and sees its chat charged to the
 * organization, per member and in the chart; another claimed human gets 404 for it. Screenshots at
 * desktop and phone width go to test/artifacts/.
 */

const ADMIN = 'dashboard-browser-admin-token-0123456789';
const MODEL = 'openai/gpt-4o-mini';

let upstream: Upstream;
let gateway: RunningGateway;
let browser: Browser;
/** `http://localhost:<port>`: WebAuthn needs a domain for its RP ID, and `127.0.0.1` is none. */
let base: string;

beforeAll(async () => {
  upstream = await startOpenAIUpstream();
  gateway = await startGateway({ ADMIN_TOKEN: ADMIN, OPENAI_API_KEY: 'sk-dashboard-browser', OPENAI_BASE_URL: `${upstream.url}/v1` });
  base = gateway.url.replace('127.0.0.1', 'localhost');
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
  await upstream?.stop();
});

function chat(apiKey: string, model: string): Promise<Response> {
  return fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Say hello' }] }),
  });
}

/** An agent registered and credited by the operator API, with the claim token it would hand to its human. */
async function fundedAgentWithClaimToken(usd: string): Promise<{ accountId: string; apiKey: string; claimToken: string }> {
  const res = await fetch(`${base}/agent/register`, { method: 'POST', headers: { 'CF-Connecting-IP': '198.51.100.77' }, body: JSON.stringify({ type: 'anonymous' }) });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { account_id: string; api_key: string; claim_token: string };
  const credited = await fetch(`${base}/admin/accounts/${body.account_id}/credits`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN}` },
    body: JSON.stringify({ amount_usd: usd, reason: 'dashboard test' }),
  });
  expect(credited.status).toBe(200);
  return { accountId: body.account_id, apiKey: body.api_key, claimToken: body.claim_token };
}

async function errorCode(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

async function go(page: Page, path: string): Promise<void> {
  await page.goto(`${base}${path}`);
  expect(page.url()).toBe(`${base}${path}`);
}

describe('the dashboard in a browser', () => {
  it('makes a limited key that the API obeys, revokes it, and charts the spend', { timeout: 180_000 }, async () => {
    const agent = await fundedAgentWithClaimToken('5.00');
    const { context, page, problems } = await openTab(browser, { passkey: true });
    try {
      // The agent's own key spends a little first.
      expect((await chat(agent.apiKey, MODEL)).status).toBe(200);
      await claimInBrowser(page, base, agent.claimToken);
      await expect(page.locator('h1').innerText()).resolves.toBe(`Account ${agent.accountId.slice(0, 8)}`);

      // Out, and back in with the same passkey.
      await Promise.all([page.waitForURL(`${base}/signin?signed_out=1`), page.getByRole('button', { name: 'Sign out' }).click()]);
      await Promise.all([page.waitForURL(`${base}/dashboard`), page.getByRole('button', { name: 'Sign in with a passkey' }).click()]);

      // A key for one model, with a daily limit of ten micro-dollars.
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.waitForURL(`${base}/dashboard/keys`);
      const create = page.locator('form[action="/dashboard/keys"]');
      await create.getByLabel('Name').fill('research bot');
      await create.getByLabel('Daily limit (USD)').fill('0.000010');
      await create.locator(`input[name=allowed_models][value="${MODEL}"]`).check();
      await page.screenshot({ path: `${ARTIFACTS}dashboard-keys-desktop.png`, fullPage: true });
      await Promise.all([page.waitForURL(`${base}/dashboard/keys`), create.getByRole('button', { name: 'Create key' }).click()]);
      const apiKey = (await page.locator('#new-key').innerText()).trim();
      expect(apiKey).toMatch(/^ak-[0-9A-Za-z]{45}$/);
      await expect(page.locator('#guardrails').innerText()).resolves.toBe(`daily $0.00001 · models: ${MODEL}`);
      await page.screenshot({ path: `${ARTIFACTS}dashboard-key-created-desktop.png`, fullPage: true });

      // The API: another model is refused, the allowed one works until the daily limit.
      const other = await chat(apiKey, 'openai/gpt-4o');
      expect(other.status).toBe(403);
      expect(await errorCode(other)).toBe('model_not_allowed');
      const statuses: number[] = [];
      let refused: Response | undefined;
      for (let i = 0; i < 10 && !refused; i++) {
        const res = await chat(apiKey, MODEL);
        statuses.push(res.status);
        if (res.status === 200) await res.arrayBuffer();
        else refused = res;
      }
      expect(statuses[0]).toBe(200);
      expect(refused?.status).toBe(429);
      expect(await errorCode(refused!)).toBe('daily_spend_limit_exceeded');
      expect(Number(refused!.headers.get('Retry-After'))).toBeGreaterThan(0);

      // Revoked in the dashboard: refused at once.
      await go(page, '/dashboard/keys');
      await Promise.all([page.waitForURL(/\/dashboard\/keys\/key_/), page.getByRole('link', { name: 'research bot' }).click()]);
      const keyPath = new URL(page.url()).pathname;
      await page.screenshot({ path: `${ARTIFACTS}dashboard-key-desktop.png`, fullPage: true });
      await Promise.all([page.waitForURL(/\?revoked$/), page.getByRole('button', { name: 'Revoke key' }).click()]);
      await expect(page.locator('#notice').innerText()).resolves.toContain('Key revoked');
      const revoked = await chat(apiKey, MODEL);
      expect(revoked.status).toBe(401);
      expect(await errorCode(revoked)).toBe('api_key_revoked');

      // The chart has today's bar for the model, and the ledger the key's requests.
      await go(page, '/dashboard');
      const today = new Date().toISOString().slice(0, 10);
      await expect(page.locator(`#usage-chart rect.bar[data-model="${MODEL}"][data-day="${today}"]`).count()).resolves.toBe(1);
      await expect(page.getByRole('img', { name: 'Spend per day by model, last 30 days (UTC)' }).count()).resolves.toBe(1);
      await page.screenshot({ path: `${ARTIFACTS}dashboard-overview-desktop.png`, fullPage: true });
      await go(page, '/dashboard/ledger');
      await page.getByLabel('Key').selectOption({ label: await keyOption(page, 'research bot') });
      await Promise.all([page.waitForURL(/\/dashboard\/ledger\?key=key_/), page.getByRole('button', { name: 'Filter' }).click()]);
      const rows = await page.locator('#ledger tbody tr').count();
      expect(rows).toBe(statuses.filter((status) => status === 200).length);
      await page.screenshot({ path: `${ARTIFACTS}dashboard-ledger-desktop.png`, fullPage: true });

      // The same pages at phone width.
      await page.setViewportSize(PHONE);
      for (const [path, name, selectors] of [
        ['/dashboard', 'overview', ['#usage-chart', 'nav.tabs', 'section', '#funding']],
        ['/dashboard/ledger', 'ledger', ['#ledger', 'form.filters']],
        ['/dashboard/keys', 'keys', ['#keys', 'form[action="/dashboard/keys"] button', '.models']],
      ] as const) {
        await go(page, path);
        await fitsWidth(page, [...selectors]);
        await page.screenshot({ path: `${ARTIFACTS}dashboard-${name}-phone.png`, fullPage: true });
      }
      // A live key's page (the agent's own key), with its guardrails form.
      await Promise.all([page.waitForURL(/\/dashboard\/keys\/key_/), page.getByRole('link', { name: 'default' }).click()]);
      expect(new URL(page.url()).pathname).not.toBe(keyPath);
      await fitsWidth(page, ['#guardrails', '.models', 'form[action$="/revoke"] button']);
      await page.screenshot({ path: `${ARTIFACTS}dashboard-key-phone.png`, fullPage: true });
      await page.setViewportSize(DESKTOP);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('makes an organization, invites an agent, approves it, charts its spend, revokes an invite, and shows it to nobody else', { timeout: 180_000 }, async () => {
    const human = await fundedAgentWithClaimToken('1.00');
    const { context, page, problems } = await openTab(browser, { passkey: true });
    try {
      await claimInBrowser(page, base, human.claimToken);
      await page.getByRole('link', { name: 'Organizations' }).click();
      await page.waitForURL(`${base}/dashboard/organizations`);
      await page.getByLabel('Name').fill('Research fleet');
      await Promise.all([page.waitForURL(/\/dashboard\/organizations\/[0-9a-f-]{36}\?created$/), page.getByRole('button', { name: 'Create organization' }).click()]);
      const orgPath = new URL(page.url()).pathname;
      const orgId = orgPath.split('/').at(-1)!;
      await expect(page.locator('#notice').innerText()).resolves.toContain('Organization created');
      await expect(page.locator('#org-balance').innerText()).resolves.toBe('$0.00');
      // Its fund link opens its fund page (card and USDC there); the operator credits it here.
      const fundUrl = await page.locator('#org-fund-url').innerText();
      expect(fundUrl).toMatch(/\/fund\/[A-Za-z0-9]{32}$/);
      expect((await fetch(fundUrl.replace('127.0.0.1', 'localhost'))).status).toBe(200);
      const credited = await fetch(`${base}/admin/accounts/${orgId}/credits`, { method: 'POST', headers: { Authorization: `Bearer ${ADMIN}` }, body: JSON.stringify({ amount_usd: '5.00', reason: 'org test' }) });
      expect(credited.status).toBe(200);

      // An invite with a $2 monthly cap, shown once.
      await page.getByLabel(/Monthly cap per member/).fill('2.00');
      await Promise.all([page.waitForURL(`${base}${orgPath}/invites`), page.getByRole('button', { name: 'Create invite' }).click()]);
      const code = (await page.locator('#new-invite').innerText()).trim();
      expect(code.length).toBeGreaterThan(20);
      await page.screenshot({ path: `${ARTIFACTS}dashboard-org-invite-desktop.png`, fullPage: true });

      // An agent joins with it through the API: pending, its requests refused until approved.
      const member = await fundedAgentWithClaimToken('0.50');
      const joined = await fetch(`${base}/agent/org/join`, { method: 'POST', headers: { Authorization: `Bearer ${member.apiKey}` }, body: JSON.stringify({ invite_code: code }) });
      expect(await joined.json()).toEqual({ organization_id: orgId, status: 'pending' });
      const refused = await chat(member.apiKey, MODEL);
      expect(refused.status).toBe(403);
      expect(await errorCode(refused)).toBe('membership_pending');
      await go(page, orgPath);
      await expect(page.locator(`#pending tr[data-account-id="${member.accountId}"]`).count()).resolves.toBe(1);
      await page.screenshot({ path: `${ARTIFACTS}dashboard-org-pending-desktop.png`, fullPage: true });
      await Promise.all([page.waitForURL(`${base}${orgPath}?approved`), page.getByRole('button', { name: `Approve ${member.accountId}` }).click()]);
      await expect(page.locator('#pending').count()).resolves.toBe(0);

      // Approved: its chat is charged to the organization, and the page shows its spend and chart.
      const res = await chat(member.apiKey, MODEL);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      const cost = Math.round(Number(res.headers.get('X-Service-Cost')) * 1e6);
      expect(cost).toBeGreaterThan(0);
      const account = (await (await fetch(`${base}/agent/account`, { headers: { Authorization: `Bearer ${member.apiKey}` } })).json()) as { balance_usd: string; organization: { status: string } };
      expect(account.balance_usd).toBe('0.500000');
      expect(account.organization.status).toBe('active');
      await go(page, orgPath);
      const row = page.locator(`#members tr[data-account-id="${member.accountId}"]`);
      await expect(row.locator('.badge').innerText()).resolves.toBe('active');
      await expect(row.locator('.member-spend').innerText()).resolves.toBe(shownUsd(cost));
      await expect(page.locator('#org-balance').innerText()).resolves.toBe(shownUsd(5_000_000 - cost));
      const today = new Date().toISOString().slice(0, 10);
      await expect(page.locator(`#member-chart rect.bar[data-model="${member.accountId.slice(0, 8)}"][data-day="${today}"]`).count()).resolves.toBe(1);
      await expect(page.getByRole('img', { name: 'Spend per day by member, last 30 days (UTC)' }).count()).resolves.toBe(1);

      // A second invite, revoked: nobody joins with it.
      await Promise.all([page.waitForURL(`${base}${orgPath}/invites`), page.getByRole('button', { name: 'Create invite' }).click()]);
      const second = (await page.locator('#new-invite').innerText()).trim();
      await go(page, orgPath);
      const live = page.locator('#invites tbody tr').first();
      const inviteId = await live.getAttribute('data-invite-id');
      await Promise.all([page.waitForURL(`${base}${orgPath}?revoked`), page.getByRole('button', { name: `Revoke ${inviteId}` }).click()]);
      await expect(page.locator(`#invites tr[data-invite-id="${inviteId}"] .badge`).innerText()).resolves.toBe('revoked');
      const late = await fundedAgentWithClaimToken('0.10');
      const lateJoin = await fetch(`${base}/agent/org/join`, { method: 'POST', headers: { Authorization: `Bearer ${late.apiKey}` }, body: JSON.stringify({ invite_code: second }) });
      expect(lateJoin.status).toBe(404);
      await page.screenshot({ path: `${ARTIFACTS}dashboard-org-desktop.png`, fullPage: true });
      await page.setViewportSize(PHONE);
      await go(page, orgPath);
      await fitsWidth(page, ['#members', '#member-chart', '#invites', 'form[action$="/invites"] button', '#org-fund-url']);
      await page.screenshot({ path: `${ARTIFACTS}dashboard-org-phone.png`, fullPage: true });
      await go(page, '/dashboard/organizations');
      await fitsWidth(page, ['#organizations', 'nav.tabs']);
      await page.screenshot({ path: `${ARTIFACTS}dashboard-orgs-phone.png`, fullPage: true });
      await page.setViewportSize(DESKTOP);
      expect(problems).toEqual([]);

      // Another claimed human: the organization is not there for them.
      const stranger = await openTab(browser, { passkey: true });
      try {
        await claimInBrowser(stranger.page, base, member.claimToken);
        const other = await stranger.page.goto(`${base}${orgPath}`);
        expect(other?.status()).toBe(404);
        await expect(stranger.page.locator('#form-error').getAttribute('data-code')).resolves.toBe('not_found');
        await expect(stranger.page.locator('body').innerText()).resolves.not.toContain('Research fleet');
        await stranger.page.screenshot({ path: `${ARTIFACTS}dashboard-org-not-found-desktop.png`, fullPage: true });
      } finally {
        await stranger.context.close();
      }
    } finally {
      await context.close();
    }
  });

  it('shows a browser an error page, never the API JSON, for an address nobody serves and a forged form post', async () => {
    const { context, page, problems } = await openTab(browser);
    try {
      const missing = await page.goto(`${base}/dashboard/no-such-page`);
      expect(missing?.status()).toBe(404);
      expect(missing?.headers()['content-type']).toMatch(/^text\/html/);
      await expect(page.locator('#form-error').getAttribute('data-code')).resolves.toBe('not_found');
      await page.screenshot({ path: `${ARTIFACTS}error-page-desktop.png`, fullPage: true });
      // A form post the browser sends without our CSRF token (a page elsewhere, or an expired form).
      await page.setContent(`<form method="post" action="${base}/dashboard/signout"><input name="csrf" value="forged"><button>go</button></form>`);
      await Promise.all([page.waitForURL(`${base}/dashboard/signout`), page.click('button')]);
      await expect(page.locator('#form-error').getAttribute('data-code')).resolves.toBe('invalid_request');
      expect(await page.locator('h1').innerText()).toBe('This did not work');
      // Chromium logs the error statuses themselves; nothing else (no CSP violation, no script error).
      expect(problems.filter((problem) => !problem.startsWith('console: Failed to load resource'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** The label of the ledger's key option that starts with `name`. */
async function keyOption(page: Page, name: string): Promise<string> {
  const labels = await page.locator('#filter-key option').allInnerTexts();
  return labels.find((label) => label.startsWith(name))!;
}
