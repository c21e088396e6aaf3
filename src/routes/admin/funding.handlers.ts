import type { RouteHandler } from '@hono/zod-openapi';
import { database } from '../../db';
import { cardPaymentsOf, claimUnmatchedDeposit, depositById, depositsOf, unclaimDeposit, unmatchedDeposits, type CardPaymentRow, type DepositRow } from '../../db/funding';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { creditFunding } from '../../funding/credit';
import { usdcAmount } from '../../funding/intents';
import { depositCreditKey } from '../../funding/deposit-key';
import { formatUsd } from '../../money';
import type { creditDeposit, unmatchedDeposits as unmatchedRoute } from './funding.routes';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function depositBody(row: DepositRow) {
  const micros = BigInt(row.amount);
  return {
    id: row.id,
    tx_hash: row.txHash,
    log_index: row.logIndex,
    block_number: row.blockNumber,
    from: row.fromAddress,
    amount_usdc: micros <= BigInt(Number.MAX_SAFE_INTEGER) ? usdcAmount(Number(micros)) : `${micros / 1_000_000n}.${String(micros % 1_000_000n).padStart(6, '0')}`,
    status: row.status,
    account_id: row.accountId,
    payment_intent: row.intentId,
    seen_at: new Date(row.seenAt).toISOString(),
    credited_at: iso(row.creditedAt),
    note: row.note,
  };
}

export function cardPaymentBody(row: CardPaymentRow) {
  return {
    id: row.id,
    amount_usd: formatUsd(row.amountMicros),
    status: row.status,
    checkout_session: row.sessionId,
    created_at: new Date(row.createdAt).toISOString(),
    paid_at: iso(row.paidAt),
  };
}

/** An account's funding history for the operator view: card payments and USDC deposits. */
export async function fundingHistory(env: Env, accountId: string) {
  const db = database(env);
  const [cards, chain] = await Promise.all([cardPaymentsOf(db, accountId, 50), depositsOf(db, accountId, 50)]);
  return { card_payments: cards.map(cardPaymentBody), deposits: chain.map(depositBody) };
}

export const unmatchedDepositsHandler: RouteHandler<typeof unmatchedRoute, AppEnv> = async (c) => {
  const { limit } = c.req.valid('query');
  return c.json({ data: (await unmatchedDeposits(database(c.env), limit)).map(depositBody) }, 200);
};

/**
 * Credits an unmatched deposit by hand, under the same idempotency key the watcher would use, so
 * a deposit is credited once whoever gets there first.
 */
export const creditDepositHandler: RouteHandler<typeof creditDeposit, AppEnv> = async (c) => {
  const { deposit_id } = c.req.valid('param');
  const { account_id, reason } = c.req.valid('json');
  const db = database(c.env);
  const deposit = await depositById(db, deposit_id);
  if (!deposit) throw new GatewayError('not_found', `No deposit ${deposit_id}.`);
  if (deposit.status === 'pending') throw new GatewayError('invalid_request', 'This deposit is not confirmed yet; the watcher credits it if it matches an intent.', { param: 'deposit_id' });
  if (deposit.status === 'reversed') throw new GatewayError('invalid_request', 'A reorg took this transfer off the chain and its credit was taken back; the watcher credits it again if it lands again.', { param: 'deposit_id' });
  if (deposit.status === 'credited' && deposit.accountId !== account_id) {
    throw new GatewayError('invalid_request', `This deposit was already credited to account ${deposit.accountId}.`, { param: 'account_id' });
  }
  const micros = BigInt(deposit.amount);
  if (micros > BigInt(Number.MAX_SAFE_INTEGER)) throw new GatewayError('invalid_request', 'This deposit is too large to credit automatically.', { param: 'deposit_id' });
  // Claimed before the credit: a second operator credit, or the watcher's reversal, finds it taken.
  if (deposit.status === 'unmatched' && !(await claimUnmatchedDeposit(db, deposit.id, account_id, Date.now(), `operator: ${reason}`))) {
    throw new GatewayError('invalid_request', 'This deposit changed meanwhile (credited or reversed); read it again.', { param: 'deposit_id' });
  }
  const result = await creditFunding(c.env, {
    accountId: account_id,
    amountMicros: Number(micros),
    source: 'usdc',
    idempotencyKey: depositCreditKey(deposit),
    note: `operator: ${reason} (${usdcAmount(Number(micros))} USDC, tx ${deposit.txHash} log ${deposit.logIndex})`,
  });
  if (!result) {
    if (deposit.status === 'unmatched') await unclaimDeposit(db, deposit.id, account_id);
    throw new GatewayError('not_found', `No account ${account_id}.`);
  }
  return c.json({ deposit: depositBody((await depositById(db, deposit_id))!), credited: result.applied, balance_usd: formatUsd(result.balanceMicros) }, 200);
};
