import { runInDurableObject } from 'cloudflare:test';
import { drizzle } from 'drizzle-orm/durable-sqlite';
import { migrate } from 'drizzle-orm/durable-sqlite/migrator';
import { describe, expect, it } from 'vitest';
import migrations from '../../durable-objects/account/migrations/migrations.js';
import { accountStub } from './helpers';

describe('account storage migrations', () => {
  it('0001 keeps the open holds and leaves the closed ones to the ledger; 0002 gives holds and ledger rows a request id; 0005 keeps the open holds in a table without rowid', async () => {
    // A Durable Object with no account has empty storage: bring it to the first schema with
    // drizzle's own migrator, write holds the old way, then apply everything as the object does.
    const stub = accountStub(crypto.randomUUID());
    const rows = await runInDurableObject(stub, async (_, state) => {
      const db = drizzle(state.storage);
      const first = { journal: { ...migrations.journal, entries: migrations.journal.entries.slice(0, 1) }, migrations: { m0000: migrations.migrations.m0000 } };
      await migrate(db, first);
      const insert = "INSERT INTO holds (id, key_id, amount_micros, purpose, state, created_at, expires_at) VALUES (?, 'key_1', ?, 'chat', ?, 1, 2)";
      state.storage.sql.exec(insert, 'hold_open', 100, 'open');
      state.storage.sql.exec(insert, 'hold_settled', 200, 'settled');
      state.storage.sql.exec(insert, 'hold_expired', 300, 'expired');
      state.storage.sql.exec("INSERT INTO ledger (kind, amount_micros, balance_after_micros, hold_id, idempotency_key, note, created_at) VALUES ('release', 300, 0, 'hold_expired', 'release:hold_expired', 'expired', 3)");
      await migrate(db, migrations);
      return {
        holds: state.storage.sql.exec('SELECT * FROM holds').toArray(),
        ledger: state.storage.sql.exec('SELECT hold_id, note, request_id FROM ledger').toArray(),
        expiredIndex: state.storage.sql.exec("SELECT sql FROM sqlite_master WHERE name = 'ledger_expired'").toArray(),
        indexes: state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'holds'").toArray(),
        holdsTable: state.storage.sql.exec("SELECT sql FROM sqlite_master WHERE name = 'holds'").one().sql,
      };
    });
    // 0010 (D29) adds the member account of an organization's hold, null for every older hold.
    expect(rows.holds).toEqual([{ id: 'hold_open', key_id: 'key_1', amount_micros: 100, purpose: 'chat', created_at: 1, expires_at: 2, request_id: null, member_account_id: null }]);
    // 0005: keyed by id alone, without a rowid, so no separate primary-key index to write.
    expect(rows.indexes).toEqual([]);
    expect(rows.holdsTable).toMatch(/\) WITHOUT ROWID$/);
    expect(rows.ledger).toEqual([{ hold_id: 'hold_expired', note: 'expired', request_id: null }]);
    expect(rows.expiredIndex).toEqual([{ sql: expect.stringContaining("WHERE kind = 'release' AND note = 'expired'") }]);
  });
});
