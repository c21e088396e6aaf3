import type { Context } from 'hono';
import type { KeyRecord } from '../../../durable-objects/account/types';
import { liveModels } from '../../catalog';
import type { AppEnv } from '../../env';
import { accountStub } from '../../human/claims';
import { formatUsd } from '../../money';
import { pageHeaders } from '../security';
import { csvLine } from './csv';
import { dashboardCsrf, signedIn } from './handlers';
import { keyLabel, LedgerPage, type LedgerFilter } from './ledger-page';
import { notFoundPage } from './not-found';
import { modelOfPurpose, windowStart } from './usage';

const PAGE_SIZE = 50;
/** Charges read from the Durable Object per step of a CSV export. */
export const CSV_PAGE = 500;

/** The filter of a ledger URL; null when it names a key this account does not have. */
function readFilter(c: Context<AppEnv>, keys: KeyRecord[]): LedgerFilter | null {
  const keyId = c.req.query('key') || undefined;
  const model = c.req.query('model')?.slice(0, 200) || undefined;
  if (keyId !== undefined && !keys.some((key) => key.id === keyId)) return null;
  return { keyId, model };
}

/** `GET /dashboard/ledger?key=&model=&before=`: charges, newest first, 50 a page. */
export async function ledgerPage(c: Context<AppEnv>): Promise<Response> {
  const now = Date.now();
  const human = await signedIn(c, now);
  if (human instanceof Response) return human;
  const stub = accountStub(c.env, human.account.accountId);
  const shortId = human.account.accountId.slice(0, 8);
  const csrf = dashboardCsrf(c);
  const keys = await stub.keys();
  const filter = readFilter(c, keys);
  if (!filter) return notFoundPage(c, { shortId, csrf, tab: 'ledger', message: 'This account has no such key.' });
  const beforeText = c.req.query('before');
  const before = beforeText && /^\d{1,15}$/.test(beforeText) ? Number(beforeText) : undefined;
  const [page, recent] = await Promise.all([stub.chargePage(filter, PAGE_SIZE, before), stub.dailySpend(windowStart(now))]);
  // What can be filtered on: the catalog's live models, those used lately, and the current choice.
  const models = new Set([...liveModels(c.env).map(({ model }) => model.id), ...(recent ?? []).map((row) => modelOfPurpose(row.purpose))]);
  if (filter.model) models.add(filter.model);
  return c.html(
    <LedgerPage
      shortId={shortId}
      csrf={csrf}
      keys={keys}
      models={[...models].sort()}
      filter={filter}
      entries={page?.entries ?? []}
      nextBefore={page?.nextBefore ?? null}
      paged={before !== undefined}
    />,
    200,
    pageHeaders(),
  );
}

/**
 * `GET /dashboard/ledger.csv?key=&model=`: every charge the same filter shows, newest first, as
 * CSV, streamed a page at a time from the account's Durable Object.
 */
export async function ledgerCsv(c: Context<AppEnv>): Promise<Response> {
  const now = Date.now();
  const human = await signedIn(c, now);
  if (human instanceof Response) return human;
  const stub = accountStub(c.env, human.account.accountId);
  const keys = await stub.keys();
  const filter = readFilter(c, keys);
  if (!filter) return notFoundPage(c, { shortId: human.account.accountId.slice(0, 8), csrf: dashboardCsrf(c), tab: 'ledger', message: 'This account has no such key.' });
  const byId = new Map(keys.map((key) => [key.id, key]));
  const encoder = new TextEncoder();
  let before: number | undefined;
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(csvLine(['time_utc', 'key_id', 'key', 'model', 'purpose', 'request_id', 'cost_usd'])));
      }
      const page = await stub.chargePage(filter, CSV_PAGE, before);
      const lines = (page?.entries ?? []).map((entry) =>
        csvLine([
          new Date(entry.createdAt).toISOString(),
          entry.keyId,
          entry.keyId === null ? null : keyLabel(entry.keyId, byId),
          modelOfPurpose(entry.purpose),
          entry.purpose,
          entry.requestId,
          formatUsd(entry.amountMicros),
        ]),
      );
      if (lines.length > 0) controller.enqueue(encoder.encode(lines.join('')));
      if (!page || page.nextBefore === null) controller.close();
      else before = page.nextBefore;
    },
  });
  const name = `ledger-${human.account.accountId.slice(0, 8)}-${new Date(now).toISOString().slice(0, 10)}.csv`;
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
