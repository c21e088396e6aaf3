import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { accountStub } from '../../human/claims';
import { pageHeaders } from '../security';
import { ActivityPage, RequestPage } from './activity-page';
import { dashboardCsrf, signedIn } from './handlers';
import { notFoundPage } from './not-found';

const PAGE_SIZE = 50;

/** A page cursor as its link writes it: `<ms>.<request id>`. */
function readBefore(text: string | undefined): { at: number; id: string } | undefined {
  const match = text ? /^(\d{1,15})\.([A-Za-z0-9_-]{1,200})$/.exec(text) : null;
  return match ? { at: Number(match[1]), id: match[2]! } : undefined;
}

/** `GET /dashboard/activity?before=`: the account's requests, newest first, 50 a page. */
export async function activityPage(c: Context<AppEnv>): Promise<Response> {
  const human = await signedIn(c, Date.now());
  if (human instanceof Response) return human;
  const stub = accountStub(c.env, human.account.accountId);
  const before = readBefore(c.req.query('before'));
  const [page, keys] = await Promise.all([stub.requestsPage(PAGE_SIZE, before), stub.keys()]);
  const next = page?.next ? `${page.next.at}.${page.next.id}` : null;
  return c.html(
    <ActivityPage
      shortId={human.account.accountId.slice(0, 8)}
      csrf={dashboardCsrf(c)}
      rows={page?.rows ?? []}
      keys={new Map(keys.map((key) => [key.id, key]))}
      next={next}
      paged={before !== undefined}
    />,
    200,
    pageHeaders(),
  );
}

/** `GET /dashboard/requests/<id>`: one of the account's requests; another account's is not found. */
export async function requestPage(c: Context<AppEnv>): Promise<Response> {
  const human = await signedIn(c, Date.now());
  if (human instanceof Response) return human;
  const shortId = human.account.accountId.slice(0, 8);
  const csrf = dashboardCsrf(c);
  const id = c.req.param('id') ?? '';
  const request = id.length <= 200 ? await accountStub(c.env, human.account.accountId).requestRecord(id) : null;
  if (!request) return notFoundPage(c, { shortId, csrf, tab: 'activity', message: 'This account has no such request (records are kept 30 days).' });
  return c.html(<RequestPage shortId={shortId} csrf={csrf} request={request} />, 200, pageHeaders());
}
