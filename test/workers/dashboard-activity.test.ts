import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/accounts/credentials';
import { signedInOwner } from './dashboard-helpers';
import { accountStub } from './helpers';

/** A request as a billed route records it: held, then settled at `micros` or released (failed). */
async function request(accountId: string, apiKey: string, outcome: { settle: number } | 'failed', record: { requestId: string; path: string; model: string; usage: Record<string, number>; durationMs: number }) {
  const stub = accountStub(accountId);
  const hold = await stub.authorizeHold({ keyHash: await sha256Hex(apiKey), minMicros: 1_000, maxMicros: 1_000, purpose: `chat:${record.model}`, requestId: record.requestId });
  if (!hold.ok) throw new Error(hold.reason);
  const full = { ...record, provider: 'openai', startedAt: Date.now(), streamed: false };
  if (outcome === 'failed') await stub.release(hold.holdId, full);
  else await stub.settle(hold.holdId, outcome.settle, full);
}

describe('the activity view', () => {
  it('lists each request with its units, status, model, provider, latency and cost, failed ones included, newest first, each linking to its details', async () => {
    const { agent, visitor } = await signedInOwner('1');
    await request(agent.account_id, agent.api_key, { settle: 420 }, { requestId: 'req_served1', path: '/v1/chat/completions', model: 'openai/gpt-4o-mini', usage: { prompt_tokens: 12, completion_tokens: 5, cached_tokens: 3 }, durationMs: 1234 });
    await request(agent.account_id, agent.api_key, 'failed', { requestId: 'req_failed1', path: '/v1/chat/completions', model: 'openai/gpt-4o-mini', usage: {}, durationMs: 87 });
    const { res, html } = await visitor.get('/dashboard/activity');
    expect(res.status).toBe(200);
    expect(html).toContain('<a href="/dashboard/activity" aria-current="page">Activity</a>');
    const rows = [...html.matchAll(/<tr data-request-id="([^"]+)" data-status="([^"]+)">(.*?)<\/tr>/g)].map((m) => ({ id: m[1], status: m[2], html: m[3]! }));
    expect(rows.map((r) => [r.id, r.status])).toEqual([
      ['req_failed1', 'failed'],
      ['req_served1', 'succeeded'],
    ]);
    const served = rows[1]!.html;
    expect(served).toContain('<a href="/dashboard/requests/req_served1"><code>req_served1</code></a>');
    expect(served).toContain('12 in · 5 out tokens (3 cached)');
    expect(served).toContain('openai/gpt-4o-mini<span class="muted"> via openai</span>');
    expect(served).toContain('1,234 ms');
    expect(served).toContain('$0.00042');
    expect(rows[0]!.html).toContain('<span class="badge failed">failed</span>');
    expect(rows[0]!.html).toContain('$0.00');

    const details = await visitor.get('/dashboard/requests/req_served1');
    expect(details.res.status).toBe(200);
    expect(details.html).toMatch(/<dt>Status<\/dt><dd>succeeded<\/dd>[\s\S]*<dt>Latency<\/dt><dd>1,234 ms<\/dd>[\s\S]*<dt>Cost<\/dt><dd>\$0.00042<\/dd>/);
  });

  it("pages by a cursor and never shows another account's request", async () => {
    const { agent, visitor } = await signedInOwner('1');
    for (let i = 0; i < 52; i++) {
      await request(agent.account_id, agent.api_key, { settle: 1 }, { requestId: `req_p${String(i).padStart(3, '0')}`, path: '/v1/scrape', model: 'web', usage: { pages: 1 }, durationMs: 1 });
    }
    const first = await visitor.get('/dashboard/activity');
    const ids = (html: string) => [...html.matchAll(/<tr data-request-id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids(first.html)).toHaveLength(50);
    const older = /href="(\/dashboard\/activity\?before=[^"]+)" rel="next"/.exec(first.html)![1]!.replaceAll('&amp;', '&');
    const second = await visitor.get(older);
    expect(new Set([...ids(first.html), ...ids(second.html)]).size).toBe(52);
    expect(second.html).not.toContain('rel="next"');

    const other = await signedInOwner('1');
    const foreign = await other.visitor.get('/dashboard/requests/req_p000');
    expect(foreign.res.status).toBe(404);
    expect(ids((await other.visitor.get('/dashboard/activity')).html)).toEqual([]);
  });
});
