import type { RouteHandler } from '@hono/zod-openapi';
import type { SuspensionView } from '../../../durable-objects/account/suspension';
import { AccountClient } from '../../accounts/account-client';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import type { suspend, unsuspend } from './suspension.routes';

/** A suspension on the wire; null when the account is not suspended. */
export function suspendedBody(view: SuspensionView | null) {
  return view ? { reason: view.reason, suspended_at: new Date(view.at).toISOString() } : null;
}

const noAccount = (id: string) => new GatewayError('not_found', `No account ${id}.`);
/** Each operator act is its own audit row; suspending a suspended account writes none. */
const operatorKey = (act: string) => `operator:${act}:${crypto.randomUUID()}`;

export const suspendHandler: RouteHandler<typeof suspend, AppEnv> = async (c) => {
  const { account_id } = c.req.valid('param');
  const { reason } = c.req.valid('json');
  const view = await (await new AccountClient(c.env, account_id).direct()).suspend(reason, operatorKey('suspend'));
  if (!view) throw noAccount(account_id);
  return c.json({ account_id, suspended: suspendedBody(view) }, 200);
};

export const unsuspendHandler: RouteHandler<typeof unsuspend, AppEnv> = async (c) => {
  const { account_id } = c.req.valid('param');
  const { reason } = c.req.valid('json');
  const result = await (await new AccountClient(c.env, account_id).direct()).unsuspend(reason, operatorKey('unsuspend'));
  if (!result) throw noAccount(account_id);
  return c.json({ account_id, suspended: suspendedBody(result.suspended) }, 200);
};
