import type { CreditEntry } from '../../../durable-objects/account/usage';
import type { CardPaymentRow, DepositRow } from '../../db/funding';

/**
 * The account's funding history as one list, newest first: card payments (with their state, so a
 * payment still at Stripe shows), USDC deposits, and the credits that came by no payment (the
 * operator's, the welcome grant), read from the ledger. Pure.
 */

export interface FundingRow {
  at: number;
  method: 'Card' | 'USDC on Base' | 'Operator credit' | 'Welcome credit';
  amountMicros: number;
  status: string;
  /** A transaction hash, or the operator's reason. */
  reference: string | null;
}

const CARD_STATUS: Record<CardPaymentRow['status'], string> = { open: 'awaiting payment', processing: 'processing', paid: 'paid', expired: 'not completed' };
const DEPOSIT_STATUS: Record<DepositRow['status'], string> = { pending: 'confirming', credited: 'credited', unmatched: 'not matched', reversed: 'reversed (reorg)' };

export function fundingRows(cards: CardPaymentRow[], deposits: DepositRow[], credits: CreditEntry[], limit = 50): FundingRow[] {
  const rows: FundingRow[] = [
    ...cards.map((card) => ({ at: card.paidAt ?? card.createdAt, method: 'Card' as const, amountMicros: card.amountMicros, status: CARD_STATUS[card.status], reference: null })),
    ...deposits.flatMap((deposit) => {
      const micros = Number(deposit.amount);
      if (!Number.isSafeInteger(micros)) return [];
      return [{ at: deposit.creditedAt ?? deposit.seenAt, method: 'USDC on Base' as const, amountMicros: micros, status: DEPOSIT_STATUS[deposit.status], reference: deposit.txHash }];
    }),
    ...credits.flatMap((credit) => {
      if (credit.source !== 'operator' && credit.source !== 'welcome') return [];
      const method = credit.source === 'operator' ? ('Operator credit' as const) : ('Welcome credit' as const);
      return [{ at: credit.createdAt, method, amountMicros: credit.amountMicros, status: 'credited', reference: credit.source === 'operator' ? credit.note : null }];
    }),
  ];
  return rows.sort((a, b) => b.at - a.at).slice(0, limit);
}
