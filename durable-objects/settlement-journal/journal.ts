import { holdOwner } from '../../src/accounts/hold-owner';
import { DurableObject } from 'cloudflare:workers';
import type { RequestRecord } from '../account/requests';

/** A recorded settlement that its first forward did not deliver is sent again from this age on. */
export const FORWARD_AFTER_MS = 10_000;
/** After a forward that failed (the account's Durable Object unreachable), the next attempt. */
const RETRY_MS = 30_000;
/** Attempts before an entry is given up (logged): about 25 minutes of a Durable Object that never answers. */
const MAX_ATTEMPTS = 50;
/** Settlements sent to one account in one call. */
const BATCH = 64;
/**
 * How long a recorded settlement waits before it is sent on: the answer that states it leaves
 * first, and one call carries every settlement an account got meanwhile.
 */
export const GATHER_MS = 20;

/** A settlement the Worker is about to state to its client (docs/contributors/money.md, "Durable near the Worker when the account is far"). */
export interface JournalEntry {
  accountId: string;
  holdId: string;
  chargeMicros: number;
  /** The request's record for its lookup (D26), forwarded with the charge. */
  record?: RequestRecord;
}

interface Stored extends JournalEntry {
  at: number;
  attempts: number;
}

const keyOf = (holdId: string) => `settle:${holdId}`;

/**
 * A settlement journal near the Worker (one per location and shard, `src/accounts/settlement.ts`):
 * where a charge becomes durable before its answer leaves when the account's Durable Object is
 * far away, and which then carries it there. An entry is sent to its account `GATHER_MS` after it
 * is stored, with every other entry of that account stored meanwhile, and forgotten once the
 * account has answered; the alarm sends again whatever is still here `FORWARD_AFTER_MS` later
 * (the account did not answer, or this object was evicted). A settlement is idempotent per hold,
 * so a repeat charges nothing.
 */
export class SettlementJournalDurableObject extends DurableObject<Env> {
  /** Per account, the entries stored since its next send was scheduled. */
  readonly #gathering = new Map<string, Stored[]>();

  /** Durable when it returns (the output gate holds the answer until the write is stored); sent on shortly after. */
  async record(entry: JournalEntry): Promise<void> {
    const storage = this.ctx.storage;
    const stored: Stored = {
      // D29: a member's hold is settled in its organization, whoever journaled it.
      accountId: holdOwner(entry.accountId, entry.holdId),
      holdId: entry.holdId,
      chargeMicros: entry.chargeMicros,
      ...(entry.record ? { record: entry.record } : {}),
      at: Date.now(),
      attempts: 0,
    };
    await storage.put(keyOf(entry.holdId), stored);
    if ((await storage.getAlarm()) === null) await storage.setAlarm(stored.at + FORWARD_AFTER_MS);
    const gathered = this.#gathering.get(stored.accountId);
    if (gathered) {
      gathered.push(stored);
      return;
    }
    this.#gathering.set(stored.accountId, [stored]);
    this.ctx.waitUntil(this.#sendGathered(stored.accountId));
  }

  /** Entries not yet forwarded, oldest first: for tests and the operator. */
  async pending(): Promise<Stored[]> {
    return [...(await this.ctx.storage.list<Stored>({ prefix: 'settle:' })).values()].sort((a, b) => a.at - b.at);
  }

  override async alarm(): Promise<void> {
    const now = Date.now();
    const entries = await this.pending();
    const due = entries.filter((entry) => entry.at + FORWARD_AFTER_MS <= now);
    let failed = false;
    for (const [accountId, list] of groupBy(due, (entry) => entry.accountId)) {
      for (let i = 0; i < list.length; i += BATCH) {
        failed = !(await this.#forward(accountId, list.slice(i, i + BATCH))) || failed;
      }
    }
    const left = await this.pending();
    if (left.length === 0) return;
    const next = failed ? now + RETRY_MS : Math.max(now + 1_000, left[0]!.at + FORWARD_AFTER_MS);
    await this.ctx.storage.setAlarm(next);
  }

  async #sendGathered(accountId: string): Promise<void> {
    await scheduler.wait(GATHER_MS);
    const entries = this.#gathering.get(accountId) ?? [];
    this.#gathering.delete(accountId);
    for (let i = 0; i < entries.length; i += BATCH) await this.#forward(accountId, entries.slice(i, i + BATCH));
  }

  /** Sends settlements to their account; forgets each that the account answered. False when the call failed. */
  async #forward(accountId: string, entries: Stored[]): Promise<boolean> {
    const storage = this.ctx.storage;
    const stub = this.env.ACCOUNT.get(this.env.ACCOUNT.idFromName(accountId));
    let results;
    try {
      ({ results } = await stub.apply(entries.map((entry) => ({ op: 'settle', holdId: entry.holdId, chargeMicros: entry.chargeMicros, ...(entry.record ? { record: entry.record } : {}) }))));
    } catch (err) {
      console.error(`settlement journal: account ${accountId} did not answer`, err);
      await this.#retryLater(entries);
      return false;
    }
    const answered: string[] = [];
    const retry: Stored[] = [];
    entries.forEach((entry, i) => {
      const result = results[i];
      // A settlement (now or before) or a refusal that no retry changes; an error is tried again.
      if (result && !('error' in result)) answered.push(keyOf(entry.holdId));
      else retry.push(entry);
      if (result && 'ok' in result && !result.ok) console.error(`settlement journal: ${entry.holdId} refused`, result);
    });
    if (answered.length) await storage.delete(answered);
    await this.#retryLater(retry);
    return retry.length === 0;
  }

  async #retryLater(entries: Stored[]): Promise<void> {
    for (const entry of entries) {
      if (entry.attempts + 1 >= MAX_ATTEMPTS) {
        console.error(`settlement journal: gave up ${entry.holdId} of ${entry.accountId} (${entry.chargeMicros} micro-USD)`);
        await this.ctx.storage.delete(keyOf(entry.holdId));
      } else {
        await this.ctx.storage.put(keyOf(entry.holdId), { ...entry, attempts: entry.attempts + 1 });
      }
    }
  }
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
