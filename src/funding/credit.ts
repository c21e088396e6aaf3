import { AccountClient } from '../accounts/account-client';
import { database } from '../db';
import { markFunded } from '../db/accounts';
import type { CreditSource } from '../../durable-objects/account/schema';

export interface FundingCredit {
  accountId: string;
  amountMicros: number;
  source: Extract<CreditSource, 'card' | 'usdc' | 'x402'>;
  /** `stripe:<session id>`, `usdc:<tx hash>:<log index>` or `x402:<chain>:<token>:<payer>:<nonce>`: a repeated delivery credits once. */
  idempotencyKey: string;
  note: string;
}

/**
 * Credits money that arrived (a card payment, a USDC deposit) to its account: one ledger row under
 * the payment's own idempotency key, so a webhook delivered three times or a watcher retried after
 * a crash credits once. A funded account never expires, and the D1 index follows. False when the
 * account no longer exists.
 */
export async function creditFunding(env: Env, credit: FundingCredit): Promise<{ applied: boolean; balanceMicros: number } | null> {
  const stub = await new AccountClient(env, credit.accountId).direct();
  const result = await stub.credit({ amountMicros: credit.amountMicros, idempotencyKey: credit.idempotencyKey, source: credit.source, note: credit.note });
  if (result) await markFunded(database(env), credit.accountId, Date.now());
  return result;
}
