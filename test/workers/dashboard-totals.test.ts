import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/accounts/credentials';
import { charge, operatorKey, signedInOwner } from './dashboard-helpers';
import { accountStub } from './helpers';

const DAY = 86_400_000;

/** A request as a billed route records it: held, then settled at `micros` or released (failed), started at `startedAt`. */
async function request(accountId: string, apiKey: string, outcome: { settle: number } | 'failed', startedAt = Date.now()) {
  const stub = accountStub(accountId);
  const requestId = `req_${crypto.randomUUID().replaceAll('-', '')}`;
  const micros = outcome === 'failed' ? 1_000 : outcome.settle;
  const hold = await stub.authorizeHold({ keyHash: await sha256Hex(apiKey), minMicros: micros, maxMicros: micros, purpose: 'chat:openai/gpt-4o-mini', requestId });
  if (!hold.ok) throw new Error(hold.reason);
  const record = { requestId, path: '/v1/chat/completions', model: 'openai/gpt-4o-mini', provider: 'openai', startedAt, durationMs: 10, streamed: false, usage: { prompt_tokens: 1 } };
  if (outcome === 'failed') await stub.release(hold.holdId, record);
  else await stub.settle(hold.holdId, outcome.settle, record);
}

/** The overview's totals table, as `window: [spend, requests, succeeded, failed]`. */
function totalsOf(html: string): Record<string, string[]> {
  const table = /<table class="rows" id="totals">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
  const rows = [...table.matchAll(/<tr data-window="([^"]+)">([\s\S]*?)<\/tr>/g)];
  return Object.fromEntries(rows.map((m) => [m[1], [...m[2]!.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((cell) => cell[1]!)]));
}

/** The keys table's spend and last-use cells of one key: `[30 days, total, last used]`. */
function keyUsageOf(html: string, keyId: string): string[] {
  const row = new RegExp(`<tr data-key-id="${keyId}">([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? '';
  return ['Spend, 30 days', 'Spend, total', 'Last used'].map((label) => new RegExp(`data-label="${label}"[^>]*>([^<]*)<`).exec(row)?.[1] ?? '');
}

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

describe('the overview totals', () => {
  it('shows spend and succeeded and failed request counts today, this month and over 30 days, exactly', async () => {
    const { agent, visitor } = await signedInOwner('10');
    const now = Date.now();
    await request(agent.account_id, agent.api_key, { settle: 4_200 });
    await request(agent.account_id, agent.api_key, { settle: 1_500_000 });
    await request(agent.account_id, agent.api_key, 'failed');
    // A charge with no request record (a job's), and a failed request started 20 days ago.
    await charge(agent.account_id, agent.api_key, 'scrape', 5_800);
    const old = now - 20 * DAY;
    await request(agent.account_id, agent.api_key, 'failed', old);
    const oldThisMonth = old >= Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);

    const { res, html } = await visitor.get('/dashboard');
    expect(res.status).toBe(200);
    expect(totalsOf(html)).toEqual({
      today: ['$1.51', '3', '2', '1'],
      month: ['$1.51', oldThisMonth ? '4' : '3', '2', oldThisMonth ? '2' : '1'],
      last30Days: ['$1.51', '4', '2', '2'],
    });
  });

  it('counts a charge and a request only in the windows they fall in (UTC day and month, 30 days)', async () => {
    const { agent } = await signedInOwner('10');
    await request(agent.account_id, agent.api_key, { settle: 250_000 });
    const stub = accountStub(agent.account_id);
    const now = Date.now();
    const nextDay = Math.floor(now / DAY) * DAY + DAY;
    const tomorrow = await stub.activityTotals(nextDay + 1);
    expect(tomorrow?.today).toEqual({ spentMicros: 0, succeeded: 0, failed: 0 });
    expect(tomorrow?.last30Days).toEqual({ spentMicros: 250_000, succeeded: 1, failed: 0 });
    const sameMonth = new Date(nextDay).getUTCMonth() === new Date(now).getUTCMonth();
    expect(tomorrow?.month).toEqual(sameMonth ? { spentMicros: 250_000, succeeded: 1, failed: 0 } : { spentMicros: 0, succeeded: 0, failed: 0 });
    const later = await stub.activityTotals(now + 31 * DAY);
    expect(later).toEqual({ today: { spentMicros: 0, succeeded: 0, failed: 0 }, month: { spentMicros: 0, succeeded: 0, failed: 0 }, last30Days: { spentMicros: 0, succeeded: 0, failed: 0 } });
  });

  it('shows how to use a key: the base URL and a chat completion to paste, with no key in it', async () => {
    const { agent, visitor } = await signedInOwner('1');
    const { html } = await visitor.get('/dashboard');
    expect(html).toContain('<code id="base-url" class="link">https://gateway.test/v1</code>');
    expect(html).toContain('curl https://gateway.test/v1/chat/completions');
    expect(html).toContain('export GATEWAY_API_KEY=&lt;your API key&gt;');
    expect(html).not.toContain(agent.api_key);
  });
});

describe('the keys page', () => {
  it('shows each key its spend over 30 days and in all, and its last use (a failed request is a use; an unused key says never)', async () => {
    const { agent, visitor } = await signedInOwner('10');
    const [own] = await accountStub(agent.account_id).keys();
    const failing = await operatorKey(agent.account_id, { name: 'failing' });
    const unused = await operatorKey(agent.account_id, { name: 'unused' });
    const before = Date.now();
    await request(agent.account_id, agent.api_key, { settle: 1_234_567 });
    await charge(agent.account_id, agent.api_key, 'scrape', 5);
    const after = Date.now();
    const failedAt = before - 5 * DAY;
    await request(agent.account_id, failing.apiKey, 'failed', failedAt);

    const { res, html } = await visitor.get('/dashboard/keys');
    expect(res.status).toBe(200);
    const [spent30, spentTotal, lastUsed] = keyUsageOf(html, own!.id);
    expect([spent30, spentTotal]).toEqual(['$1.23', '$1.23']);
    const shown = Date.parse(lastUsed!.replace(' ', 'T').replace(' UTC', 'Z'));
    expect(shown).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(shown).toBeLessThanOrEqual(after);
    expect(keyUsageOf(html, failing.id)).toEqual(['$0.00', '$0.00', utc(failedAt)]);
    expect(keyUsageOf(html, unused.id)).toEqual(['$0.00', '$0.00', 'never']);
  });

  it('reads a key spend over 30 days from its charges since then, and its total from all of them', async () => {
    const { agent } = await signedInOwner('10');
    await charge(agent.account_id, agent.api_key, 'chat:openai/gpt-4o-mini', 700);
    await charge(agent.account_id, agent.api_key, 'scrape', 5);
    const [own] = await accountStub(agent.account_id).keys();
    const listed = await accountStub(agent.account_id).keysWithUsage(Date.now() + 31 * DAY);
    expect(listed?.usage.find((row) => row.keyId === own!.id)).toMatchObject({ spent30DaysMicros: 0, spentTotalMicros: 705 });
    const now = await accountStub(agent.account_id).keysWithUsage(Date.now());
    expect(now?.usage.find((row) => row.keyId === own!.id)).toMatchObject({ spent30DaysMicros: 705, spentTotalMicros: 705 });
  });
});
