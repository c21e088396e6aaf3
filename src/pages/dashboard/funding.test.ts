import { describe, expect, it } from 'vitest';
import type { CardPaymentRow, DepositRow } from '../../db/funding';
import { fundingRows } from './funding';

const card = (over: Partial<CardPaymentRow>): CardPaymentRow => ({
  id: 'cp_1',
  accountId: 'a',
  amountMicros: 25_000_000,
  status: 'paid',
  sessionId: 'cs_1',
  createdAt: 1_000,
  expiresAt: 5_000,
  paidAt: 2_000,
  ...over,
});

const deposit = (over: Partial<DepositRow>): DepositRow => ({
  id: '0xabc:0',
  txHash: '0xabc',
  logIndex: 0,
  blockNumber: 1,
  blockHash: '0xblock',
  blockTime: 2_000,
  fromAddress: '0xfrom',
  amount: '10000042',
  reversals: 0,
  status: 'credited',
  intentId: 'pi_1',
  accountId: 'a',
  seenAt: 3_000,
  creditedAt: 4_000,
  note: null,
  ...over,
});

describe('the funding history', () => {
  it('lists card payments, USDC deposits and credits without a payment, newest first', () => {
    const rows = fundingRows(
      [card({}), card({ id: 'cp_2', status: 'open', paidAt: null, createdAt: 6_000 })],
      [deposit({})],
      [
        { seq: 1, amountMicros: 12_500_000, source: 'operator', note: 'first top-up', createdAt: 500 },
        { seq: 2, amountMicros: 25_000_000, source: 'card', note: null, createdAt: 2_000 },
        { seq: 3, amountMicros: 10_000_042, source: 'usdc', note: null, createdAt: 4_000 },
        { seq: 4, amountMicros: 100_000, source: 'welcome', note: 'welcome credit', createdAt: 100 },
      ],
    );
    expect(rows).toEqual([
      { at: 6_000, method: 'Card', amountMicros: 25_000_000, status: 'awaiting payment', reference: null },
      { at: 4_000, method: 'USDC on Base', amountMicros: 10_000_042, status: 'credited', reference: '0xabc' },
      { at: 2_000, method: 'Card', amountMicros: 25_000_000, status: 'paid', reference: null },
      { at: 500, method: 'Operator credit', amountMicros: 12_500_000, status: 'credited', reference: 'first top-up' },
      { at: 100, method: 'Welcome credit', amountMicros: 100_000, status: 'credited', reference: null },
    ]);
  });

  it('keeps the newest rows up to the limit', () => {
    const cards = Array.from({ length: 5 }, (_, i) => card({ id: `cp_${i}`, paidAt: i }));
    expect(fundingRows(cards, [], [], 2).map((row) => row.at)).toEqual([4, 3]);
  });
});
