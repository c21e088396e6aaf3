import type { RouteHandler } from '@hono/zod-openapi';
import type { z } from '@hono/zod-openapi';
import type { KeyPatch } from '../../../durable-objects/account/keys';
import type { KeyGuardrails } from '../../../durable-objects/account/types';
import { AccountClient } from '../../accounts/account-client';
import { newApiKey, sha256Hex } from '../../accounts/credentials';
import { accountBody, callCountsBody, holdBody, keyBody, ledgerBody } from '../../accounts/wire';
import { database } from '../../db';
import { markFunded } from '../../db/accounts';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { formatUsd, parseUsd } from '../../money';
import { publicBaseUrl } from '../../urls';
import { fundingHistory } from './funding.handlers';
import { suspendedBody } from './suspension.handlers';
import type { createKey, credit, getAccount, getLedger, KeyGuardrailsInput, releaseHold, updateKey } from './admin.routes';

/** The account's Durable Object, after anything this isolate still has queued for it. */
function accountStub(env: Env, accountId: string) {
  return new AccountClient(env, accountId).direct();
}

const noAccount = (id: string) => new GatewayError('not_found', `No account ${id}.`);

export const creditHandler: RouteHandler<typeof credit, AppEnv> = async (c) => {
  const { account_id } = c.req.valid('param');
  const { amount_usd, reason } = c.req.valid('json');
  const amountMicros = parseUsd(amount_usd);
  if (!amountMicros) throw new GatewayError('invalid_request', 'amount_usd must be a non-zero decimal USD amount.', { param: 'amount_usd' });
  // Without an Idempotency-Key every call is a new credit; with one, retries credit once.
  const idempotencyKey = `operator:${c.req.valid('header')['idempotency-key'] ?? crypto.randomUUID()}`;
  const account = await accountStub(c.env, account_id);
  const request = { amountMicros, idempotencyKey, source: 'operator', note: reason } as const;
  if (amountMicros < 0) {
    // A debit (a correction or a refund paid outside): never beyond what the account has free.
    const result = await account.debit(request);
    if (!result) throw noAccount(account_id);
    if (!result.ok) {
      throw new GatewayError('invalid_request', `The debit of ${formatUsd(-amountMicros)} USD exceeds the available balance, ${formatUsd(result.availableMicros)} USD (the balance less open holds).`, {
        param: 'amount_usd',
      });
    }
    return c.json({ account_id, balance_usd: formatUsd(result.balanceMicros) }, 200);
  }
  const result = await account.credit(request);
  if (!result) throw noAccount(account_id);
  await markFunded(database(c.env), account_id, Date.now());
  return c.json({ account_id, balance_usd: formatUsd(result.balanceMicros) }, 200);
};

export const getAccountHandler: RouteHandler<typeof getAccount, AppEnv> = async (c) => {
  const { account_id } = c.req.valid('param');
  const account = await accountStub(c.env, account_id);
  const view = await account.adminView();
  if (!view) throw noAccount(account_id);
  return c.json(
    {
      ...accountBody(view.account, publicBaseUrl(c)),
      keys: view.keys.map(keyBody),
      holds: view.holds.map(holdBody),
      expired_unsettled_holds: view.expiredUnsettledHolds,
      loss_usd: formatUsd(view.lossMicros),
      ledger: view.ledger.map(ledgerBody),
      durable_object_calls: callCountsBody(view.calls),
      suspended: suspendedBody(view.account.suspended),
      funding: await fundingHistory(c.env, account_id),
    },
    200,
  );
};

export const getLedgerHandler: RouteHandler<typeof getLedger, AppEnv> = async (c) => {
  const { account_id } = c.req.valid('param');
  const { limit, cursor } = c.req.valid('query');
  const account = await accountStub(c.env, account_id);
  const page = await account.ledgerPage(limit, cursor === undefined ? undefined : Number(cursor));
  if (!page) throw noAccount(account_id);
  return c.json({ data: page.entries.map(ledgerBody), next_cursor: page.nextBefore === null ? null : String(page.nextBefore) }, 200);
};

export const releaseHoldHandler: RouteHandler<typeof releaseHold, AppEnv> = async (c) => {
  const { account_id, hold_id } = c.req.valid('param');
  const { reason } = c.req.valid('json');
  const account = await accountStub(c.env, account_id);
  const result = await account.releaseByOperator(hold_id, reason);
  if (!result) throw new GatewayError('not_found', `No hold ${hold_id} on account ${account_id}.`);
  return c.json({ hold_id, released: result.released, balance_usd: formatUsd(result.balanceMicros) }, 200);
};

export const createKeyHandler: RouteHandler<typeof createKey, AppEnv> = async (c) => {
  const { account_id } = c.req.valid('param');
  const { name, ...guardrails } = c.req.valid('json');
  const apiKey = newApiKey(account_id);
  const account = await accountStub(c.env, account_id);
  // By the operator: an audit ledger row names the key (the dashboard's keys are the human's own).
  const key = await account.createKey(
    {
      hash: await sha256Hex(apiKey),
      hint: `ak-…${apiKey.slice(-4)}`,
      name: name ?? 'key',
      ...toGuardrails(guardrails),
    },
    'operator',
  );
  if (!key) throw noAccount(account_id);
  return c.json({ api_key: apiKey, key: keyBody(key) }, 201);
};

export const updateKeyHandler: RouteHandler<typeof updateKey, AppEnv> = async (c) => {
  const { account_id, key_id } = c.req.valid('param');
  const { name, revoked, ...guardrails } = c.req.valid('json');
  const account = await accountStub(c.env, account_id);
  const key = await account.updateKey(key_id, { name, revoked, ...toGuardrails(guardrails) }, 'operator');
  if (!key) throw new GatewayError('not_found', `No key ${key_id} on account ${account_id}.`);
  return c.json(keyBody(key), 200);
};

/** Wire guardrails to the account's: undefined leaves a value, null clears it. */
function toGuardrails(input: Omit<z.infer<typeof KeyGuardrailsInput>, 'name'>): KeyGuardrails & Pick<KeyPatch, 'allowedRoutes'> {
  const micros = (text: string | null | undefined) => (text === undefined ? undefined : text === null ? null : parseUsd(text));
  const out: KeyGuardrails & Pick<KeyPatch, 'allowedRoutes'> = {
    dailyLimitMicros: micros(input.daily_limit_usd),
    monthlyLimitMicros: micros(input.monthly_limit_usd),
    totalLimitMicros: micros(input.total_limit_usd),
    allowedModels: input.allowed_models,
    allowedRoutes: input.allowed_routes === undefined || input.allowed_routes === null ? input.allowed_routes : [...new Set(input.allowed_routes)],
    expiresAt: input.expires_at === undefined ? undefined : input.expires_at === null ? null : Date.parse(input.expires_at),
  };
  return Object.fromEntries(Object.entries(out).filter(([, value]) => value !== undefined));
}
