import { runInDurableObject } from 'cloudflare:test';
import { drizzle } from 'drizzle-orm/durable-sqlite';
import { migrate } from 'drizzle-orm/durable-sqlite/migrator';
import { ExpiryAlarm } from '../../durable-objects/account/alarm';
import { Keys } from '../../durable-objects/account/keys';
import { Ledger } from '../../durable-objects/account/ledger';
import { AccountMemory } from '../../durable-objects/account/memory';
import migrations from '../../durable-objects/account/migrations/migrations.js';
import * as schema from '../../durable-objects/account/schema';
import { SpendCounters } from '../../durable-objects/account/spend';
import { KeyTree } from '../../durable-objects/account/key-tree';
import type { KeyGuardrails } from '../../durable-objects/account/types';
import { accountStub } from './helpers';

/** 2026-11-30T12:00:00Z: the modules take the time as an argument, so the tests choose it. */
export const NOW = Date.UTC(2026, 10, 30, 12);
export const DAY_MS = 86_400_000;

export interface AccountModules {
  storage: DurableObjectStorage;
  memory: AccountMemory;
  spend: SpendCounters;
  keys: Keys;
  ledger: Ledger;
  /** The account's one key. */
  keyId: string;
  keyHash: string;
}

/**
 * Runs `body` inside a fresh account Durable Object, on modules built over its storage as
 * `AccountDurableObject` builds them, with one account holding `balanceMicros` and one key with
 * `guardrails`. The object's own instance started with empty storage, so it never looks at the
 * account these modules make.
 */
export function withAccountModules<T>(
  setup: { balanceMicros?: number; guardrails?: KeyGuardrails },
  body: (modules: AccountModules) => T | Promise<T>,
): Promise<T> {
  return runInDurableObject(accountStub(crypto.randomUUID()), async (_, state) => {
    const { storage } = state;
    const db = drizzle(storage, { schema });
    await migrate(db, migrations);
    const memory = new AccountMemory();
    const tree = new KeyTree(storage);
    const spend = new SpendCounters(storage, memory.holds, tree);
    const keys = new Keys(storage, db, memory, spend, tree);
    const ledger = new Ledger(storage, db, memory, spend, new ExpiryAlarm(storage));

    db.insert(schema.account)
      .values({ id: 'acct_test', createdAt: NOW, claimTokenHash: 'claim', expiresAt: NOW + 30 * DAY_MS, balanceMicros: setup.balanceMicros ?? 0 })
      .run();
    memory.load(storage);
    const keyHash = 'a'.repeat(64);
    const key = keys.create({ hash: keyHash, hint: 'ak-…aaaa', name: 'test', ...setup.guardrails }, NOW);
    return body({ storage, memory, spend, keys, ledger, keyId: key.id, keyHash });
  });
}

/** The key's row as the hot path reads it; fails the test when the key does not pass. */
export function checkedKey(modules: AccountModules, now = NOW) {
  const checked = modules.keys.check(modules.keyHash, undefined, now);
  if (!checked.ok) throw new Error(`key refused: ${checked.reason}`);
  return checked.key;
}

/** Holds and settles `micros` at `now` through the ledger, as a billed request does. */
export function holdAndSettle(modules: AccountModules, micros: number, now = NOW): void {
  const granted = modules.ledger.hold(checkedKey(modules, now), { keyHash: modules.keyHash, minMicros: micros, maxMicros: micros, purpose: 'test' }, now);
  if (!granted.ok) throw new Error(`hold refused: ${granted.reason}`);
  modules.ledger.settle(granted.holdId, micros, now);
}

export function rows(storage: DurableObjectStorage, query: string, ...bindings: unknown[]) {
  return storage.sql.exec(query, ...bindings).toArray();
}
