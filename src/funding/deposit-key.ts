import type { DepositRow } from '../db/funding';

/**
 * The one idempotency key of a deposit's credit, automatic or by the operator's hand: `usdc:<id>`,
 * and after each credit a reorg took back (`reversals`) a fresh one, `usdc:<id>:<n>`, so a
 * transfer that lands again is credited again, once.
 */
export function depositCreditKey(deposit: Pick<DepositRow, 'id' | 'reversals'>): string {
  return deposit.reversals === 0 ? `usdc:${deposit.id}` : `usdc:${deposit.id}:${deposit.reversals}`;
}
