import { and, desc, eq, gt, gte, inArray, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { Database } from '.';
import { cardPayments, deposits, fundingIntents } from './schema';

export type FundingIntentRow = typeof fundingIntents.$inferSelect;
export type DepositRow = typeof deposits.$inferSelect;
/** The note of a deposit that is an x402 payment's settlement, credited to the paying account (`src/x402/payment.ts`). */
export const X402_DEPOSIT_NOTE = 'x402 payment';
/**
 * The place of an x402 deposit whose settlement's receipt could not be read when it was credited
 * (a facilitator's settlement): no block yet. The watcher places it from its receipt
 * (`placeUnplacedDeposits`), or takes its credit back should the chain never show it.
 */
export const UNPLACED = { logIndex: -1, blockNumber: 0, blockHash: '' } as const;
/** The id of an unplaced x402 deposit (`<tx hash>:unplaced`): its credit's key, kept once it is placed. */
export const unplacedDepositId = (txHash: string): string => `${txHash.toLowerCase()}:unplaced`;
/** A deposit as first recorded (never reversed yet). */
export type NewDeposit = Omit<DepositRow, 'reversals'>;
export type CardPaymentRow = typeof cardPayments.$inferSelect;

// ---- USDC intents -------------------------------------------------------------------------------

/** Frees the amounts of intents past their hour, so new intents may take them. */
export async function expireIntents(db: Database, now: number): Promise<void> {
  await db.update(fundingIntents).set({ status: 'expired' }).where(and(eq(fundingIntents.status, 'open'), lte(fundingIntents.expiresAt, now))).run();
}

/** Inserts an open intent unless another open one has its amount (the partial unique index); false then. */
export async function insertIntent(db: Database, row: Omit<FundingIntentRow, 'subKeyId'> & { subKeyId?: string | null }): Promise<boolean> {
  const inserted = await db.insert(fundingIntents).values(row).onConflictDoNothing().returning({ id: fundingIntents.id }).all();
  return inserted.length > 0;
}

/**
 * The intents a deposit of exactly `amountMicros` may pay: those open during the second of its
 * block's timestamp (created before that second ended, expiring no earlier than it began),
 * whatever their status says now, unless another deposit paid them. At most two are returned:
 * the caller credits only when exactly one qualifies.
 */
export async function intentsOpenAt(db: Database, amountMicros: number, blockTimeMs: number, depositId: string): Promise<FundingIntentRow[]> {
  return db
    .select()
    .from(fundingIntents)
    .where(
      and(
        eq(fundingIntents.amountMicros, amountMicros),
        lt(fundingIntents.createdAt, blockTimeMs + 1000),
        gte(fundingIntents.expiresAt, blockTimeMs),
        or(ne(fundingIntents.status, 'paid'), eq(fundingIntents.depositId, depositId)),
      ),
    )
    .limit(2)
    .all();
}

/**
 * Marks an intent paid by `depositId`, in one conditional statement, before its account is
 * credited: true when it was unpaid or already paid by this same deposit (a pass done again),
 * false when another deposit took it first.
 */
export async function claimIntent(db: Database, intentId: string, depositId: string): Promise<boolean> {
  const claimed = await db
    .update(fundingIntents)
    .set({ status: 'paid', depositId })
    .where(and(eq(fundingIntents.id, intentId), or(ne(fundingIntents.status, 'paid'), eq(fundingIntents.depositId, depositId))))
    .returning({ id: fundingIntents.id })
    .all();
  return claimed.length > 0;
}

/** Intents still open, or that closed after `since`: a transfer made in their last minutes may not be confirmed yet. */
export async function hasIntentsOpenSince(db: Database, since: number): Promise<boolean> {
  const row = await db
    .select({ id: fundingIntents.id })
    .from(fundingIntents)
    .where(and(ne(fundingIntents.status, 'paid'), gt(fundingIntents.expiresAt, since)))
    .limit(1)
    .get();
  return row !== undefined;
}

// ---- Deposits ----------------------------------------------------------------------------------

/**
 * Records a transfer the watcher saw; a repeated sighting of the same (transaction, log) changes
 * nothing, nor does one of a log that a deposit moved by a reorg already stands for (same
 * transaction and log index, recorded under its first id), nor one of an x402 settlement already
 * recorded by its payment (same transaction and amount: its one transfer, at another place when a
 * reorg moved it between the watcher's recheck and its reads, or not placed yet). A transfer whose credit a reorg took
 * back (`reversed`) and that landed again is pending again, at its new place (an x402 payment's
 * keeps its account, to be credited to it again).
 */
export async function recordDeposit(db: Database, row: NewDeposit): Promise<void> {
  // A reversed transfer that landed again at another log index (its block is new) keeps its first
  // row, as a moved one does: its reversals count (the next credit's key) and an x402 payer.
  await db.run(sql`
    UPDATE deposits SET status = 'pending', log_index = ${row.logIndex}, block_number = ${row.blockNumber}, block_hash = ${row.blockHash},
      block_time = NULL, intent_id = NULL, credited_at = NULL, seen_at = ${row.seenAt},
      account_id = CASE WHEN note = ${X402_DEPOSIT_NOTE} THEN account_id ELSE NULL END
    WHERE id = (SELECT id FROM deposits WHERE tx_hash = ${row.txHash} AND amount = ${row.amount} AND status = 'reversed' AND id != ${row.id} LIMIT 1)
      AND NOT EXISTS (SELECT 1 FROM deposits WHERE tx_hash = ${row.txHash} AND log_index = ${row.logIndex} AND status != 'reversed')`);
  await db.run(sql`
    INSERT INTO deposits (id, tx_hash, log_index, block_number, block_hash, block_time, from_address, amount, status, intent_id, account_id, seen_at, credited_at, note, reversals)
    SELECT ${row.id}, ${row.txHash}, ${row.logIndex}, ${row.blockNumber}, ${row.blockHash}, ${row.blockTime}, ${row.fromAddress}, ${row.amount}, ${row.status}, ${row.intentId}, ${row.accountId}, ${row.seenAt}, ${row.creditedAt}, ${row.note}, 0
    WHERE NOT EXISTS (SELECT 1 FROM deposits WHERE tx_hash = ${row.txHash} AND log_index = ${row.logIndex} AND id != ${row.id} AND status != 'reversed')
      AND NOT EXISTS (SELECT 1 FROM deposits WHERE tx_hash = ${row.txHash} AND amount = ${row.amount} AND note = ${X402_DEPOSIT_NOTE} AND id != ${row.id} AND status != 'reversed')
    ON CONFLICT (id) DO UPDATE SET status = 'pending', log_index = excluded.log_index, block_number = excluded.block_number, block_hash = excluded.block_hash,
      block_time = NULL, intent_id = NULL, credited_at = NULL, seen_at = excluded.seen_at,
      account_id = CASE WHEN deposits.note = ${X402_DEPOSIT_NOTE} THEN deposits.account_id ELSE NULL END
    WHERE deposits.status = 'reversed'`);
}

/** Where a page of decided deposits ends: the next page starts after it (`decidedDepositsAbove`). */
export interface DepositPosition {
  blockNumber: number;
  logIndex: number;
  id: string;
}

/**
 * Deposits the watcher already decided (credited or unmatched) in blocks above `aboveBlock`: those
 * a reorg may still take away. Oldest first, by (block, log index, id), after `after` when given:
 * one page of a keyset walk, so every one is checked however many there are.
 */
export async function decidedDepositsAbove(db: Database, aboveBlock: number, limit: number, after?: DepositPosition): Promise<DepositRow[]> {
  return db
    .select()
    .from(deposits)
    .where(
      and(
        inArray(deposits.status, ['credited', 'unmatched']),
        gt(deposits.blockNumber, aboveBlock),
        after ? sql`(${deposits.blockNumber}, ${deposits.logIndex}, ${deposits.id}) > (${after.blockNumber}, ${after.logIndex}, ${after.id})` : undefined,
      ),
    )
    .orderBy(deposits.blockNumber, deposits.logIndex, deposits.id)
    .limit(limit)
    .all();
}

/** Credited x402 deposits not yet placed (`UNPLACED`), oldest first; block 0 keeps the read on the (status, block) index. */
export async function unplacedDeposits(db: Database, limit: number): Promise<DepositRow[]> {
  return db
    .select()
    .from(deposits)
    .where(and(eq(deposits.status, 'credited'), eq(deposits.blockNumber, UNPLACED.blockNumber), eq(deposits.blockHash, UNPLACED.blockHash)))
    .orderBy(deposits.seenAt)
    .limit(limit)
    .all();
}

/**
 * A credited deposit whose transaction a reorg moved to another block (or an unplaced one, placed):
 * the credit stands, at its new place. `reversals` counts one more when a reversal's debit that
 * was made for it has just been restored (`restoreDepositCredit`), so a later reversal takes a fresh key.
 */
export async function moveDeposit(db: Database, deposit: Pick<DepositRow, 'id' | 'reversals'>, place: { logIndex: number; blockNumber: number; blockHash: string }, restored = false): Promise<void> {
  await db
    .update(deposits)
    .set({ ...place, ...(restored ? { reversals: deposit.reversals + 1 } : {}) })
    .where(and(eq(deposits.id, deposit.id), eq(deposits.reversals, deposit.reversals)))
    .run();
}

/**
 * A credited deposit whose transfer a reorg took off the chain, after its credit was debited back:
 * `reversed`, one more reversal counted (the next credit's key), and its intent open again for
 * the transfer should it land again within the intent's hour. One conditional statement each, so
 * a pass done again counts nothing twice.
 */
export async function markReversed(db: Database, deposit: DepositRow, now: number): Promise<void> {
  await db.batch([
    db
      .update(deposits)
      .set({ status: 'reversed', reversals: deposit.reversals + 1 })
      .where(and(eq(deposits.id, deposit.id), eq(deposits.status, 'credited'), eq(deposits.reversals, deposit.reversals))),
    // `open` only while its hour lasts and no other open intent took its amount meanwhile (amounts
    // are unique among open intents); `expired` otherwise, which still matches a transfer mined in its hour.
    db
      .update(fundingIntents)
      .set({
        depositId: null,
        status: sql`CASE WHEN ${fundingIntents.expiresAt} > ${now} AND NOT EXISTS (
          SELECT 1 FROM funding_intents other WHERE other.status = 'open' AND other.amount_micros = ${fundingIntents.amountMicros}
        ) THEN 'open' ELSE 'expired' END`,
      })
      .where(and(eq(fundingIntents.depositId, deposit.id), eq(fundingIntents.status, 'paid'))),
  ]);
}

export async function pendingDeposits(db: Database, limit: number): Promise<DepositRow[]> {
  return db.select().from(deposits).where(eq(deposits.status, 'pending')).orderBy(deposits.blockNumber, deposits.logIndex).limit(limit).all();
}

/** A pending or unmatched deposit whose block was reorged away: forgotten, to be read again from the new chain. */
export async function forgetDeposit(db: Database, id: string): Promise<void> {
  // One a reorg already took back once keeps its row (and its count of reversals, the next credit's key), reversed again.
  await db.batch([
    db.delete(deposits).where(and(eq(deposits.id, id), inArray(deposits.status, ['pending', 'unmatched']), eq(deposits.reversals, 0))),
    db.update(deposits).set({ status: 'reversed' }).where(and(eq(deposits.id, id), inArray(deposits.status, ['pending', 'unmatched']), gt(deposits.reversals, 0))),
  ]);
}

/** The time of a deposit's block, read when its confirmed block is checked. */
export async function setDepositBlockTime(db: Database, id: string, blockTimeMs: number): Promise<void> {
  await db.update(deposits).set({ blockTime: blockTimeMs }).where(eq(deposits.id, id)).run();
}

/** Marks a deposit credited to `accountId` (its intent, if any, was claimed before the credit: `claimIntent`). */
/**
 * The operator's claim of an unmatched deposit for `accountId`: one conditional update, so two
 * credits of one transfer (to two accounts), or a credit racing the watcher's reorg reversal,
 * cannot both take it. False when it is no longer unmatched.
 */
export async function claimUnmatchedDeposit(db: Database, id: string, accountId: string, now: number, note: string): Promise<boolean> {
  const rows = await db
    .update(deposits)
    .set({ status: 'credited', accountId, intentId: null, creditedAt: now, note })
    .where(and(eq(deposits.id, id), eq(deposits.status, 'unmatched')))
    .returning({ id: deposits.id })
    .all();
  return rows.length > 0;
}

/** Gives a claimed deposit back to the unmatched list (its account turned out not to exist). */
export async function unclaimDeposit(db: Database, id: string, accountId: string): Promise<void> {
  await db
    .update(deposits)
    .set({ status: 'unmatched', accountId: null, creditedAt: null, note: null })
    .where(and(eq(deposits.id, id), eq(deposits.status, 'credited'), eq(deposits.accountId, accountId)))
    .run();
}

export async function settleDeposit(db: Database, deposit: DepositRow, accountId: string, intentId: string | null, now: number, note?: string): Promise<void> {
  await db
    .update(deposits)
    .set({ status: 'credited', accountId, intentId, creditedAt: now, note: note ?? null })
    .where(eq(deposits.id, deposit.id))
    .run();
}

/**
 * Records the transfer of a settled x402 payment as credited to its account, whether or not the
 * watcher saw it first (`pending` or `unmatched`): the operator can then not credit it by hand to
 * anyone, and the watcher leaves it alone. True when the deposit is this account's (new, or
 * recorded for it before); false when it was credited to another.
 */
export async function recordPaidDeposit(db: Database, row: NewDeposit): Promise<boolean> {
  await db
    .insert(deposits)
    .values(row)
    .onConflictDoUpdate({ target: deposits.id, set: { status: 'credited', accountId: row.accountId, creditedAt: row.creditedAt, note: row.note }, setWhere: ne(deposits.status, 'credited') })
    .run();
  return (await depositById(db, row.id))?.accountId === row.accountId;
}

/**
 * Records the transfer of a settled x402 payment whose receipt could not be read, credited to its
 * account: the watcher's row of that transfer (same transaction and amount) when it was seen
 * first and not yet decided for anyone, else a new unplaced row (`UNPLACED`). The row its credit
 * is keyed on; null when the transfer was credited to another account.
 */
export async function recordUnplacedPaidDeposit(db: Database, row: NewDeposit): Promise<Pick<DepositRow, 'id' | 'reversals'> | null> {
  // Each statement conditional on its own: run again, or raced, they leave one row for the transfer.
  await db.run(sql`
      UPDATE deposits SET status = 'credited', account_id = ${row.accountId}, credited_at = ${row.creditedAt}, note = ${X402_DEPOSIT_NOTE}
      WHERE id = (SELECT id FROM deposits WHERE tx_hash = ${row.txHash} AND amount = ${row.amount} AND status IN ('pending', 'unmatched') LIMIT 1)`);
  await db.run(sql`
      INSERT INTO deposits (id, tx_hash, log_index, block_number, block_hash, block_time, from_address, amount, status, intent_id, account_id, seen_at, credited_at, note, reversals)
      SELECT ${row.id}, ${row.txHash}, ${row.logIndex}, ${row.blockNumber}, ${row.blockHash}, NULL, ${row.fromAddress}, ${row.amount}, 'credited', NULL, ${row.accountId}, ${row.seenAt}, ${row.creditedAt}, ${X402_DEPOSIT_NOTE}, 0
      WHERE NOT EXISTS (SELECT 1 FROM deposits WHERE tx_hash = ${row.txHash} AND amount = ${row.amount} AND status != 'reversed')
      ON CONFLICT (id) DO NOTHING`);
  const standing = await db
    .select({ id: deposits.id, reversals: deposits.reversals, accountId: deposits.accountId })
    .from(deposits)
    .where(and(eq(deposits.txHash, row.txHash), eq(deposits.amount, row.amount), ne(deposits.status, 'reversed')))
    .get();
  return standing?.accountId === row.accountId ? { id: standing.id, reversals: standing.reversals } : null;
}

export async function markUnmatched(db: Database, id: string): Promise<void> {
  await db.update(deposits).set({ status: 'unmatched' }).where(and(eq(deposits.id, id), eq(deposits.status, 'pending'))).run();
}

export async function depositById(db: Database, id: string): Promise<DepositRow | undefined> {
  return db.select().from(deposits).where(eq(deposits.id, id)).get();
}

export async function unmatchedDeposits(db: Database, limit: number): Promise<DepositRow[]> {
  return db.select().from(deposits).where(eq(deposits.status, 'unmatched')).orderBy(desc(deposits.seenAt)).limit(limit).all();
}

export async function depositsOf(db: Database, accountId: string, limit: number): Promise<DepositRow[]> {
  return db.select().from(deposits).where(eq(deposits.accountId, accountId)).orderBy(desc(deposits.seenAt)).limit(limit).all();
}

// ---- Card payments -----------------------------------------------------------------------------

/**
 * Opens a card payment only if the account's open and paid card payments plus this one stay
 * within `capMicros` (null: no total cap). One statement, so two payments started at once cannot
 * pass the cap between them (D1 runs statements one at a time).
 */
export async function openCardPayment(db: Database, row: CardPaymentRow, capMicros: number | null, now: number): Promise<boolean> {
  if (capMicros === null) {
    await db.insert(cardPayments).values(row).run();
    return true;
  }
  const inserted = await db.run(sql`
    INSERT INTO card_payments (id, account_id, amount_micros, status, session_id, created_at, expires_at, paid_at)
    SELECT ${row.id}, ${row.accountId}, ${row.amountMicros}, 'open', NULL, ${row.createdAt}, ${row.expiresAt}, NULL
    WHERE (SELECT COALESCE(SUM(amount_micros), 0) FROM card_payments
           WHERE account_id = ${row.accountId} AND (status IN ('paid', 'processing') OR (status = 'open' AND expires_at > ${now}))) + ${row.amountMicros} <= ${capMicros}`);
  return (inserted.meta.changes ?? 0) > 0;
}

/**
 * What counts against an unclaimed account's card total now: its paid payments, those processing
 * (completed with a delayed method, paid or failed later, whatever their expiry) and its open ones
 * not yet past their expiry.
 */
export async function committedCardMicros(db: Database, accountId: string, now: number): Promise<number> {
  const row = await db
    .select({ total: sql<number>`COALESCE(SUM(${cardPayments.amountMicros}), 0)` })
    .from(cardPayments)
    .where(and(eq(cardPayments.accountId, accountId), sql`(${cardPayments.status} IN ('paid', 'processing') OR (${cardPayments.status} = 'open' AND ${cardPayments.expiresAt} > ${now}))`))
    .get();
  return Number(row?.total ?? 0);
}

export async function setCardSession(db: Database, id: string, sessionId: string): Promise<void> {
  await db.update(cardPayments).set({ sessionId }).where(eq(cardPayments.id, id)).run();
}

/** A payment that will not be paid (its session expired, or its delayed payment failed) stops counting against the caps. */
export async function closeCardPayment(db: Database, id: string): Promise<void> {
  await db.update(cardPayments).set({ status: 'expired' }).where(and(eq(cardPayments.id, id), inArray(cardPayments.status, ['open', 'processing']))).run();
}

/** A session completed with a delayed method: it counts against the caps until its payment succeeds or fails, past its expiry. */
export async function markCardProcessing(db: Database, id: string, sessionId: string): Promise<void> {
  await db.update(cardPayments).set({ status: 'processing', sessionId }).where(and(eq(cardPayments.id, id), eq(cardPayments.status, 'open'))).run();
}

export async function markCardPaid(db: Database, id: string, sessionId: string, now: number): Promise<void> {
  await db.update(cardPayments).set({ status: 'paid', sessionId, paidAt: now }).where(eq(cardPayments.id, id)).run();
}

export async function cardPaymentsOf(db: Database, accountId: string, limit: number): Promise<CardPaymentRow[]> {
  return db.select().from(cardPayments).where(eq(cardPayments.accountId, accountId)).orderBy(desc(cardPayments.createdAt)).limit(limit).all();
}

/**
 * An expired account's intents and unpaid card payments, deleted with it. Deposits stay: they are
 * money records, and one that arrives for a deleted account is kept for the operator.
 */
export async function deleteFundingOf(db: Database, accountId: string): Promise<void> {
  await db.batch([
    db.delete(fundingIntents).where(eq(fundingIntents.accountId, accountId)),
    db.delete(cardPayments).where(and(eq(cardPayments.accountId, accountId), sql`${cardPayments.status} != 'paid'`)),
  ]);
}
