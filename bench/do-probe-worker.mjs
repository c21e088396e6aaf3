// The floor of a Durable Object round trip on this runtime (used by bench/profile.mjs only):
// POST /none answers at once; /noop makes one RPC that does nothing; /sql makes one RPC that does
// what a lean hold does in raw SQL (one indexed read, one insert, one update); /sql2 makes two
// such RPCs in a row (hold + settle). Then the upstream is called as the pass-through does.
import { DurableObject } from 'cloudflare:workers';

export class Probe extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL, state TEXT NOT NULL)');
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS b (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL)');
    ctx.storage.sql.exec('INSERT OR IGNORE INTO b VALUES (1, 1000000000)');
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
    if (pathname === '/sql2') {
      await stub.hold(1);
      await stub.hold(-1);
    }
    if (request.headers.get('x-upstream')) {
      const upstream = await fetch(`${env.UPSTREAM_BASE_URL}/v1/chat/completions`, { method: 'POST', body: request.body });
      return new Response(upstream.body, { headers: { 'Content-Type': 'application/json' } });
    }
    return new Response('{}');
  },
};
