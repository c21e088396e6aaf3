import { describe, expect, it } from 'vitest';
import { CSV_PAGE } from '../../src/pages/dashboard/ledger-handlers';
import { charge, operatorKey, signedInOwner } from './dashboard-helpers';

/** The ledger page and its CSV export: each request's cost, filtered by key and model, newest first. */

const rowsOf = (html: string) => [...html.matchAll(/<code>(req_[A-Za-z0-9_]+)<\/code>/g)].map((match) => match[1]);

describe('the ledger page', () => {
  it('lists each request with time, key, model, request id and cost, newest first, filtered by key and model', async () => {
    const { agent, visitor } = await signedInOwner();
    const ci = await operatorKey(agent.account_id, { name: 'ci' });
    await charge(agent.account_id, agent.api_key, 'chat:openai/gpt-4o-mini', 1_234, 'req_one');
    await charge(agent.account_id, ci.apiKey, 'image:openai/gpt-image-1', 40_000, 'req_two');
    await charge(agent.account_id, ci.apiKey, 'chat:openai/gpt-4o-mini', 99, 'req_three');

    const all = await visitor.get('/dashboard/ledger');
    expect(all.res.status).toBe(200);
    expect(rowsOf(all.html)).toEqual(['req_three', 'req_two', 'req_one']);
    expect(all.html).toMatch(/<td data-label="Time" class="time">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC<\/td><td data-label="Key">ci \(ak-…[0-9A-Za-z]{4}\)<\/td><td data-label="Model">openai\/gpt-4o-mini<\/td><td data-label="Request id"><a href="\/dashboard\/requests\/req_three"><code>req_three<\/code><\/a><\/td><td data-label="Cost" class="num">\$0.000099<\/td>/);

    expect(rowsOf((await visitor.get(`/dashboard/ledger?key=${ci.id}`)).html)).toEqual(['req_three', 'req_two']);
    expect(rowsOf((await visitor.get('/dashboard/ledger?model=openai/gpt-4o-mini')).html)).toEqual(['req_three', 'req_one']);
    const both = await visitor.get(`/dashboard/ledger?key=${ci.id}&model=openai%2Fgpt-image-1`);
    expect(rowsOf(both.html)).toEqual(['req_two']);
    expect(both.html).toContain(`href="/dashboard/ledger.csv?key=${ci.id}&amp;model=openai%2Fgpt-image-1"`);
    expect((await visitor.get('/dashboard/ledger?model=nobody/model')).html).toContain('No charges match.');
  });

  it('pages 50 charges at a time, newest first', async () => {
    const { agent, visitor } = await signedInOwner();
    for (let i = 0; i < 52; i++) await charge(agent.account_id, agent.api_key, 'scrape', 1, `req_${String(i).padStart(2, '0')}`);
    const first = await visitor.get('/dashboard/ledger?model=scrape');
    const shown = rowsOf(first.html);
    expect(shown).toHaveLength(50);
    expect(shown[0]).toBe('req_51');
    const older = /href="(\/dashboard\/ledger\?model=scrape&amp;before=\d+)" rel="next"/.exec(first.html)![1]!.replaceAll('&amp;', '&');
    const second = await visitor.get(older);
    expect(rowsOf(second.html)).toEqual(['req_01', 'req_00']);
    expect(second.html).not.toContain('rel="next"');
    expect(second.html).toContain('>Newest</a>');
  });
});

describe('the CSV export', () => {
  it('sends the filtered rows as an attachment, with fields quoted and formulas defused', async () => {
    const { agent, visitor } = await signedInOwner();
    const tricky = await operatorKey(agent.account_id, { name: '=ops, "night"' });
    await charge(agent.account_id, agent.api_key, 'chat:openai/gpt-4o', 5, 'req_default');
    await charge(agent.account_id, tricky.apiKey, 'chat:openai/gpt-4o-mini', 2_500, 'req_tricky');
    await charge(agent.account_id, tricky.apiKey, 'scrape', 1_000, 'req_scrape');

    const { res, html: csv } = await visitor.get(`/dashboard/ledger.csv?key=${tricky.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('Content-Disposition')).toMatch(new RegExp(`^attachment; filename="ledger-${agent.account_id.slice(0, 8)}-\\d{4}-\\d\\d-\\d\\d\\.csv"$`));
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('time_utc,key_id,key,model,purpose,request_id,cost_usd');
    expect(lines.slice(1, -1).map((line) => line.replace(/^[^,]+,/, ''))).toEqual([
      `${tricky.id},"'=ops, ""night"" (ak-…${tricky.apiKey.slice(-4)})",scrape,scrape,req_scrape,0.001000`,
      `${tricky.id},"'=ops, ""night"" (ak-…${tricky.apiKey.slice(-4)})",openai/gpt-4o-mini,chat:openai/gpt-4o-mini,req_tricky,0.002500`,
    ]);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z,/);
    expect(lines.at(-1)).toBe('');

    const byModel = (await visitor.get('/dashboard/ledger.csv?model=openai/gpt-4o')).html;
    expect(byModel.split('\r\n').filter(Boolean)).toHaveLength(2);
    expect(byModel).toContain('req_default');
  });

  it(`exports more than one step of ${CSV_PAGE} charges, each once, newest first`, { timeout: 20_000 }, async () => {
    const { agent, visitor } = await signedInOwner();
    for (let i = 0; i < CSV_PAGE + 2; i++) await charge(agent.account_id, agent.api_key, 'crawl', 1, `req_${i}`);
    const rows = (await visitor.get('/dashboard/ledger.csv')).html.split('\r\n').filter(Boolean).slice(1);
    expect(rows).toHaveLength(CSV_PAGE + 2);
    expect(new Set(rows.map((row) => row.split(',')[5])).size).toBe(CSV_PAGE + 2);
    expect(rows[0]).toContain(`req_${CSV_PAGE + 1},`);
    expect(rows.at(-1)).toContain('req_0,');
  });
});
