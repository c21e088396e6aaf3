import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import migrations from '../../durable-objects/account/migrations/migrations.js';
import { accountStub } from './helpers';

const statements = (sql: string) => sql.split('--> statement-breakpoint').map((s) => s.trim()).filter(Boolean);

describe('account storage migrations', () => {
  it('0001 keeps the open holds and leaves the closed ones to the ledger', async () => {
    // A Durable Object with no account yet has empty storage: lay the first schema down by hand.
    const stub = accountStub(crypto.randomUUID());
    const rows = await runInDurableObject(stub, (_, state) => {
      const exec = (sql: string, ...args: unknown[]) => state.storage.sql.exec(sql, ...args).toArray();
      for (const sql of statements(migrations.migrations.m0000)) exec(sql);
      const insert = "INSERT INTO holds (id, key_id, amount_micros, purpose, state, created_at, expires_at) VALUES (?, 'key_1', ?, 'chat', ?, 1, 2)";
      exec(insert, 'hold_open', 100, 'open');
      exec(insert, 'hold_settled', 200, 'settled');
      exec(insert, 'hold_expired', 300, 'expired');
      for (const sql of statements(migrations.migrations.m0001)) exec(sql);
      return { holds: exec('SELECT * FROM holds'), indexes: exec("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'holds' AND sql IS NOT NULL") };
    });
    expect(rows.holds).toEqual([{ id: 'hold_open', key_id: 'key_1', amount_micros: 100, purpose: 'chat', created_at: 1, expires_at: 2 }]);
    expect(rows.indexes).toEqual([]);
  });
});
