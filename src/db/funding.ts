import { and, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '.';
import { cardPayments, deposits, fundingIntents } from './schema';

export type FundingIntentRow = typeof fundingIntents.$inferSelect;
export type DepositRow = typeof deposits.$inferSelect;
export type CardPaymentRow = typeof cardPayments.$inferSelect;

// ---- USDC intents -------------------------------------------------------------------------------

/** Frees the amounts of intents past their hour, so new intents may take them. */
export async function expireIntents(db: Database, now: number): Promise<void> {
  await db.update(fundingIntents).set({ status: 'expired' }).where(and(eq(fundingIntents.status, 'open'), lte(fundingIntents.expiresAt, now))).run();
}

/** Inserts an open intent unless another open one has its amount (the partial unique index); false then. */
export async function insertIntent(db: Database, row: FundingIntentRow): Promise<boolean> {
  const inserted = await db.insert(fundingIntents).values(row).onConflictDoNothing().returning({ id: fundingIntents.id }).all();
  return inserted.length > 0;
}

/** The open intent a deposit of exactly `amountMicros` pays, if any. */
export async function openIntentForAmount(db: Database, amountMicros: number): Promise<FundingIntentRow | undefined> {
  return db.select().from(fundingIntents).where(and(eq(fundingIntents.status, 'open'), eq(fundingIntents.amountMicros, amountMicros))).get();
}

export async function hasOpenIntents(db: Database, now: number): Promise<boolean> {
  const row = await db
    .select({ id: fundingIntents.id })
    .from(fundingIntents)
    .where(and(eq(fundingIntents.status, 'open'), sql`${fundingIntents.expiresAt} > ${now}`))
    .limit(1)
    .get();
  return row !== undefined;
}

// ---- Deposits ----------------------------------------------------------------------------------

/** Records a transfer the watcher saw; a repeated sighting of the same (transaction, log) changes nothing. */
export async function recordDeposit(db: Database, row: DepositRow): Promise<void> {
  await db.insert(deposits).values(row).onConflictDoNothing().run();
}

export async function pendingDeposits(db: Database, limit: number): Promise<DepositRow[]> {
  return db.select().from(deposits).where(eq(deposits.status, 'pending')).orderBy(deposits.blockNumber, deposits.logIndex).limit(limit).all();
}

/** A pending deposit whose block was reorged away: forgotten, to be read again from the new chain. */
export async function forgetDeposit(db: Database, id: string): Promise<void> {
  await db.delete(deposits).where(and(eq(deposits.id, id), eq(deposits.status, 'pending'))).run();
}

/** Marks a deposit credited to `accountId` and its intent paid, in one batch. */
export async function settleDeposit(db: Database, deposit: DepositRow, accountId: string, intentId: string | null, now: number, note?: string): Promise<void> {
  const credited = db
    .update(deposits)
    .set({ status: 'credited', accountId, intentId, creditedAt: now, note: note ?? null })
    .where(eq(deposits.id, deposit.id));
  if (!intentId) return void (await credited.run());
  await db.batch([credited, db.update(fundingIntents).set({ status: 'paid', depositId: deposit.id }).where(and(eq(fundingIntents.id, intentId), eq(fundingIntents.status, 'open')))]);
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
