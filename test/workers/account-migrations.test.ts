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

  it.each([
    ['reset before D36 (nobody holds it)', null, expect.any(Number)],
    ['held by its human', 'clm_x', null],
  ])('0015 marks a claimed account %s as reset, so its claim token alone no longer claims it; invites count the members they joined and take no more', async (_, holder, resetAt) => {
    const stub = accountStub(crypto.randomUUID());
    const rows = await runInDurableObject(stub, async (_, state) => {
      const db = drizzle(state.storage);
      const entries = migrations.journal.entries.slice(0, 15);
      const before = Object.fromEntries(Object.entries(migrations.migrations).filter(([name]) => Number(name.slice(1)) < 15));
      await migrate(db, { journal: { ...migrations.journal, entries }, migrations: before });
      state.storage.sql.exec("INSERT INTO account (id, created_at, claim_token_hash, claimed_at) VALUES ('acct', 1, 'h', 2)");
      state.storage.sql.exec('INSERT INTO human_claim (id, current_claim_id, human_claim_id) VALUES (1, NULL, ?)', holder);
      state.storage.sql.exec("INSERT INTO org_invites (id, hash, auto_approve, created_at) VALUES ('inv_a', 'a', 1, 1), ('inv_b', 'b', 1, 1)");
      for (const member of ['m1', 'm2']) state.storage.sql.exec("INSERT INTO org_members (account_id, status, invite_id, joined_at) VALUES (?, 'active', 'inv_a', 1)", member);
      await migrate(db, migrations);
      return {
        claim: state.storage.sql.exec('SELECT human_claim_id, reset_at, reclaim_email, reclaim_token_hash FROM human_claim').one(),
        invites: state.storage.sql.exec('SELECT id, uses, max_uses FROM org_invites ORDER BY id').toArray(),
      };
    });
    expect(rows.claim).toEqual({ human_claim_id: holder, reset_at: resetAt, reclaim_email: null, reclaim_token_hash: null });
    expect(rows.invites).toEqual([
      { id: 'inv_a', uses: 2, max_uses: 2 },
      { id: 'inv_b', uses: 0, max_uses: 1 },
    ]);
  });
});
