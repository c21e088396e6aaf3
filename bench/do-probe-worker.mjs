// The floor of a Durable Object round trip on this runtime (used by bench/profile.mjs only):
// POST /none answers at once; /noop makes one RPC that does nothing; /sql makes one RPC that does
// what a lean hold does in raw SQL (one indexed read, one insert, one update); /sql2 makes two
// such RPCs in a row (hold + settle), /sql2-two the same to two objects (a member's hold and its organization's settlement); /read one read-only RPC; /ledger, /ledger-open and /ledger-tx
// a hold's rows (a ledger row, plus an open-hold row, plus inside transactionSync); /hold-settle
// the account's own hold and settlement statements on its own tables (PROBE_SKIP=u,d,i leaves out
// the settlement's update, delete or insert). PROBE_ROUTES picks the routes bench/profile.mjs runs.
// Then the upstream is called as the pass-through does.
import { DurableObject } from 'cloudflare:workers';

export class Probe extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL, state TEXT NOT NULL)');
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS b (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL)');
    ctx.storage.sql.exec('INSERT OR IGNORE INTO b VALUES (1, 1000000000)');
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS h (id TEXT PRIMARY KEY, v INTEGER NOT NULL)');
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS l (seq INTEGER PRIMARY KEY AUTOINCREMENT, v INTEGER NOT NULL, k TEXT NOT NULL UNIQUE)');
    this.n = 0;
    // The account's own tables, as its migrations leave them (for holdLike / settleLike).
    for (const ddl of [
      'CREATE TABLE IF NOT EXISTS account (id text PRIMARY KEY NOT NULL, created_at integer NOT NULL, balance_micros integer DEFAULT 0 NOT NULL)',
      'INSERT OR IGNORE INTO account VALUES (\'acct\', 0, 1000000000000)',
      'CREATE TABLE IF NOT EXISTS holds (id text PRIMARY KEY NOT NULL, key_id text, amount_micros integer NOT NULL, purpose text NOT NULL, created_at integer NOT NULL, expires_at integer NOT NULL, request_id text)',
      'CREATE TABLE IF NOT EXISTS ledger (seq integer PRIMARY KEY AUTOINCREMENT NOT NULL, kind text NOT NULL, amount_micros integer NOT NULL, balance_after_micros integer NOT NULL, hold_id text, key_id text, source text, idempotency_key text NOT NULL, note text, created_at integer NOT NULL, request_id text)',
      'CREATE UNIQUE INDEX IF NOT EXISTS ledger_idempotency_key_unique ON ledger (idempotency_key)',
      "CREATE INDEX IF NOT EXISTS ledger_expired ON ledger (hold_id) WHERE kind = 'release' AND note = 'expired'",
    ]) ctx.storage.sql.exec(ddl);
    this.balance = 1000000000000;
  }
  holdLike() {
    const id = `hold_${Date.now().toString(36)}${(this.n++).toString(36).padStart(6, '0')}`;
    const now = Date.now();
    this.ctx.storage.transactionSync(() => {
      this.ctx.storage.sql.exec('INSERT INTO holds (id, key_id, amount_micros, purpose, request_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)', id, 'key_1', 100, 'chat:openai/gpt-4o-mini', 'req_0123456789abcdef0123456789abcdef', now, now + 30000);
      this.ctx.storage.sql.exec('INSERT INTO ledger (kind, amount_micros, balance_after_micros, hold_id, key_id, source, idempotency_key, note, request_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', 'hold', 100, this.balance, id, 'key_1', null, `hold:${id}`, 'chat:openai/gpt-4o-mini', 'req_0123456789abcdef0123456789abcdef', now);
    });
    return id;
  }
  settleLike(id) {
    const now = Date.now();
    this.balance -= 10;
    const b = this.balance;
    const skip = this.env.PROBE_SKIP ?? '';
    this.ctx.storage.transactionSync(() => {
      if (!skip.includes('u')) this.ctx.storage.sql.exec('UPDATE account SET balance_micros = ?', b);
      if (!skip.includes('d')) this.ctx.storage.sql.exec('DELETE FROM holds WHERE id = ?', id);
      if (!skip.includes('i')) this.ctx.storage.sql.exec('INSERT INTO ledger (kind, amount_micros, balance_after_micros, hold_id, key_id, source, idempotency_key, note, request_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        'charge', -10, b, id, 'key_1', null, `charge:${id}`, 'chat:openai/gpt-4o-mini', 'req_0123456789abcdef0123456789abcdef', now,
        'release', 90, b, id, 'key_1', null, `release:${id}`, 'settled', 'req_0123456789abcdef0123456789abcdef', now);
    });
    return { ok: true };
  }
  read() {
    return this.ctx.storage.sql.exec('SELECT balance FROM b WHERE id = 1').one();
  }
  /** A hold as the account writes it: an open-hold row (text key) and a ledger row (unique text key). */
  holdRows(withOpen) {
    const sql = this.ctx.storage.sql;
    const id = `hold_${Date.now().toString(36)}${(this.n++).toString(36).padStart(6, '0')}`;
    const write = () => {
      if (withOpen) sql.exec('INSERT INTO h (id, v) VALUES (?, ?)', id, 1);
      sql.exec('INSERT INTO l (v, k) VALUES (?, ?)', 1, `hold:${id}`);
    };
    if (withOpen === 'tx') this.ctx.storage.transactionSync(write);
    else write();
    return { ok: true, id };
  }
  noop() {
    return { ok: true };
  }
  hold(amount) {
    const sql = this.ctx.storage.sql;
    const { balance } = sql.exec('SELECT balance FROM b WHERE id = 1').one();
    const id = sql.exec("INSERT INTO t (v, state) VALUES (?, 'open') RETURNING id", amount).one().id;
    sql.exec('UPDATE b SET balance = ? WHERE id = 1', balance - amount);
    return { ok: true, id, balance };
  }
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    const stub = env.PROBE.get(env.PROBE.idFromName('one'));
    if (pathname === '/noop') await stub.noop();
    if (pathname === '/sql') await stub.hold(1);
    if (pathname === '/read') await stub.read();
    if (pathname === '/ledger') await stub.holdRows(false);
    if (pathname === '/ledger-open') await stub.holdRows(true);
    if (pathname === '/ledger-tx') await stub.holdRows('tx');
    if (pathname === '/hold-settle') {
      const id = await stub.holdLike();
      await stub.settleLike(id);
    }
    if (pathname === '/sql2') {
      await stub.hold(1);
      await stub.hold(-1);
    }
    if (pathname === '/sql2-two') {
      await stub.hold(1);
      await env.PROBE.get(env.PROBE.idFromName('two')).hold(-1);
    }
    if (request.headers.get('x-upstream')) {
      const upstream = await fetch(`${env.UPSTREAM_BASE_URL}/v1/chat/completions`, { method: 'POST', body: request.body });
      return new Response(upstream.body, { headers: { 'Content-Type': 'application/json' } });
    }
    return new Response('{}');
  },
};
