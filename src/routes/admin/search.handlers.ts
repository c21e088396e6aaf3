import type { RouteHandler } from '@hono/zod-openapi';
import { accountIdOfKeyId } from '../../accounts/credentials';
import { database } from '../../db';
import { searchAccounts as searchAccountRows, type AccountMatch } from '../../db/account-search';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { formatUsd } from '../../money';
import { decodeCursor, encodeCursor } from '../cursor';
import { suspendedBody } from './suspension.handlers';
import type { searchAccounts } from './search.routes';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WALLET = /^0x[0-9a-f]{40}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** What `q` names, by its shape (null: a key id of the older random format, which names no account); a `q` of no known shape is the client's error. */
export function matchOf(q: string | undefined): AccountMatch | null {
  if (q === undefined) return { by: 'all' };
  if (UUID.test(q)) return { by: 'account', accountId: q.toLowerCase() };
  if (q.startsWith('key_')) {
    const accountId = accountIdOfKeyId(q);
    return accountId ? { by: 'account', accountId } : null;
  }
  if (WALLET.test(q)) return { by: 'wallet', address: q.toLowerCase() };
  if (EMAIL.test(q)) return { by: 'email', email: q.toLowerCase() };
  throw new GatewayError('invalid_request', 'q must be an account id, a key id (key_...), an email address or a wallet address (0x and 40 hex digits).', { param: 'q' });
}

/**
 * `GET /admin/accounts`: D1 finds the page (the `accounts` index and, for emails and wallets,
 * `claims` and `deposits`); each row's balance and suspension come from its account's Durable
 * Object, where they live, in parallel (at most `ACCOUNT_PAGE_MAX` calls).
 */
export const searchAccountsHandler: RouteHandler<typeof searchAccounts, AppEnv> = async (c) => {
  const { q, limit, cursor } = c.req.valid('query');
  const match = matchOf(q);
  const after = cursor ? decodeCursor(cursor, UUID) : undefined;
  if (!match) return c.json({ data: [], next_cursor: null }, 200);
  const rows = await searchAccountRows(database(c.env), { match, limit, cursor: after && { createdAt: after.time, id: after.id } });
  const page = rows.slice(0, limit);
  const views = await Promise.all(page.map((row) => c.env.ACCOUNT.get(c.env.ACCOUNT.idFromName(row.id)).view()));
  const last = page.at(-1);
  return c.json(
    {
      data: page.map((row, i) => {
        const view = views[i] ?? null;
        return {
          account_id: row.id,
          created_at: new Date(row.createdAt).toISOString(),
          claimed: row.claimedAt !== null,
          email: row.email,
          funded_at: row.fundedAt === null ? null : new Date(row.fundedAt).toISOString(),
          suspended: suspendedBody(view?.suspended ?? null),
          balance_usd: view ? formatUsd(view.balanceMicros) : null,
          held_usd: view ? formatUsd(view.heldMicros) : null,
        };
      }),
      next_cursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null,
    },
    200,
  );
};
