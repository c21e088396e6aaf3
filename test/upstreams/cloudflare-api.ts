/**
 * A stand-in for the Cloudflare API v4, for exactly the calls `npm run deploy` makes through
 * wrangler (point wrangler at it with CLOUDFLARE_API_BASE_URL=<url>/client/v4). Answers in the
 * v4 envelope `{success, errors, messages, result}`, keeps D1 databases (each a real SQLite
 * database, so remote migrations really run), R2 buckets with their lifecycle rules, queues and
 * their consumers, and uploaded Worker scripts with their metadata. Every call is recorded; a
 * route it does not know answers 404 in the envelope and is listed in `unknown`.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { DatabaseSync } from 'node:sqlite';
import { isJson, sendJson, startUpstream, type Json, type RecordedRequest, type Upstream } from './server';

export interface D1Database {
  uuid: string;
  name: string;
  created_at: string;
  sqlite: DatabaseSync;
}

export interface R2Bucket {
  name: string;
  creation_date: string;
  lifecycleRules: Json[];
}

export interface Queue {
  queue_id: string;
  queue_name: string;
  created_on: string;
  consumers: Json[];
}

export interface WorkerScript {
  /** The `metadata` part of the last upload: bindings, main module, compatibility, migrations. */
  metadata: Json;
  /** Names of the uploaded module parts. */
  modules: string[];
  /** The Durable Object migration tag the last upload reached. */
  migrationTag: string | undefined;
  schedules: Json[];
  versions: string[];
  /** workers.dev: whether the script answers on <name>.<subdomain>.workers.dev and on preview URLs. */
  subdomain: { enabled: boolean; previews_enabled: boolean };
}

export interface CloudflareApi extends Upstream {
  accountId: string;
  /** What CLOUDFLARE_API_BASE_URL should be. */
  apiBase: string;
  databases: Map<string, D1Database>;
  buckets: Map<string, R2Bucket>;
  queues: Map<string, Queue>;
  scripts: Map<string, WorkerScript>;
  /** Calls no route answered (each got a 404). */
  unknown: RecordedRequest[];
}

const PREFIX = '/client/v4';

class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const now = () => new Date().toISOString();

/** The v4 envelope of a success. */
function ok(res: ServerResponse, result: unknown, resultInfo?: Json): void {
  sendJson(res, 200, { success: true, errors: [], messages: [], result, ...(resultInfo ? { result_info: resultInfo } : {}) });
}

function fail(res: ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { success: false, errors: [{ code, message }], messages: [], result: null });
}

interface Context {
  request: RecordedRequest;
  params: string[];
  query: URLSearchParams;
  res: ServerResponse;
}

type Route = [method: string, pattern: RegExp, handler: (context: Context) => void | Promise<void>];

/** Starts the stand-in on 127.0.0.1 with one account, `accountId`. */
export async function startCloudflareApi(accountId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90'): Promise<CloudflareApi> {
  const databases = new Map<string, D1Database>();
  const buckets = new Map<string, R2Bucket>();
  const queues = new Map<string, Queue>();
  const scripts = new Map<string, WorkerScript>();
  const unknown: RecordedRequest[] = [];
  const account = `/accounts/${accountId}`;

  const database = (idOrName: string): D1Database => {
    const found = databases.get(idOrName) ?? [...databases.values()].find((db) => db.uuid === idOrName);
    if (!found) throw new ApiFailure(404, 7404, `The database ${idOrName} could not be found`);
    return found;
  };
  const bucket = (name: string): R2Bucket => {
    const found = buckets.get(name);
    if (!found) throw new ApiFailure(404, 10006, 'The specified bucket does not exist.');
    return found;
  };
  const queue = (id: string): Queue => {
    const found = [...queues.values()].find((q) => q.queue_id === id || q.queue_name === id);
    if (!found) throw new ApiFailure(404, 11000, 'Queue does not exist');
    return found;
  };
  const script = (name: string): WorkerScript => {
    const found = scripts.get(name);
    if (!found) throw new ApiFailure(404, 10007, 'This Worker does not exist on your account.');
    return found;
  };
  const body = (request: RecordedRequest): Json => (isJson(request.body) ? request.body : {});
  const databaseInfo = (db: D1Database) => ({ uuid: db.uuid, name: db.name, created_at: db.created_at, version: 'production', num_tables: 0, file_size: 0, read_replication: { mode: 'disabled' } });
  const queueInfo = (q: Queue) => ({ ...q, modified_on: q.created_on, producers: [], producers_total_count: 0, consumers_total_count: q.consumers.length, settings: {} });

  const routes: Route[] = [
    // Who is logged in (wrangler whoami, and the account checks of every command).
    ['GET', /^\/user\/tokens\/verify$/, ({ res }) => ok(res, { id: 'token-id', status: 'active' })],
    ['GET', /^\/user$/, ({ res }) => ok(res, { id: 'user-id', email: 'operator@example.com' })],
    ['GET', /^\/accounts$/, ({ res }) => ok(res, [{ id: accountId, name: 'Operator' }], { page: 1, per_page: 50, count: 1, total_count: 1 })],
    ['GET', /^\/memberships$/, ({ res }) => ok(res, [{ id: 'membership-id', account: { id: accountId, name: 'Operator' }, roles: ['Administrator'], status: 'accepted' }], { page: 1, per_page: 50, count: 1, total_count: 1 })],

    // D1.
    ['GET', route(account, '/d1/database'), ({ res, query }) => {
      const page = Number(query.get('page') ?? 1);
      const perPage = Number(query.get('per_page') ?? 10);
      ok(res, [...databases.values()].slice((page - 1) * perPage, page * perPage).map(databaseInfo));
    }],
    ['POST', route(account, '/d1/database'), ({ request, res }) => {
      const name = String(body(request).name ?? '');
      if (databases.has(name)) throw new ApiFailure(400, 7502, 'A database with that name already exists');
      const db: D1Database = { uuid: randomUUID(), name, created_at: now(), sqlite: new DatabaseSync(':memory:') };
      databases.set(name, db);
      ok(res, databaseInfo(db));
    }],
    ['GET', route(account, '/d1/database/([^/]+)'), ({ params, res }) => ok(res, databaseInfo(database(decodeURIComponent(params[0]!))))],
    ['POST', route(account, '/d1/database/([^/]+)/(query|raw)'), ({ params, request, res }) => {
      const db = database(params[0]!);
      const { sql, params: bound = [] } = body(request) as { sql?: string; params?: (string | number | null)[] };
      ok(res, executeSql(db.sqlite, String(sql ?? ''), bound, params[1] === 'raw'));
    }],

    // R2.
    ['GET', route(account, '/r2/buckets'), ({ res }) => ok(res, { buckets: [...buckets.values()].map(({ name, creation_date }) => ({ name, creation_date, location: 'WEUR', storage_class: 'Standard' })) })],
    ['POST', route(account, '/r2/buckets'), ({ request, res }) => {
      const name = String(body(request).name ?? '');
      if (buckets.has(name)) throw new ApiFailure(409, 10004, 'The bucket you tried to create already exists, and you own it.');
      buckets.set(name, { name, creation_date: now(), lifecycleRules: [] });
      ok(res, { name, creation_date: now(), location: 'WEUR', storage_class: 'Standard' });
    }],
    ['GET', route(account, '/r2/buckets/([^/]+)'), ({ params, res }) => {
      const { name, creation_date } = bucket(params[0]!);
      ok(res, { name, creation_date, location: 'WEUR', storage_class: 'Standard' });
    }],
    ['GET', route(account, '/r2/buckets/([^/]+)/lifecycle'), ({ params, res }) => ok(res, { rules: bucket(params[0]!).lifecycleRules })],
    ['PUT', route(account, '/r2/buckets/([^/]+)/lifecycle'), ({ params, request, res }) => {
      const rules = body(request).rules;
      if (!Array.isArray(rules) || !rules.every(isJson)) throw new ApiFailure(400, 10040, 'rules must be an array of rules');
      bucket(params[0]!).lifecycleRules = rules;
      ok(res, {});
    }],

    // Queues.
    ['GET', route(account, '/queues'), ({ query, res }) => {
      const name = query.get('name');
      const list = [...queues.values()].filter((q) => !name || q.queue_name === name).map(queueInfo);
      ok(res, list, { page: 1, per_page: 100, count: list.length, total_count: list.length, total_pages: 1 });
    }],
    ['POST', route(account, '/queues'), ({ request, res }) => {
      const name = String(body(request).queue_name ?? '');
      if (queues.has(name)) throw new ApiFailure(409, 11009, 'A queue with this name already exists');
      const q: Queue = { queue_id: randomUUID().replaceAll('-', ''), queue_name: name, created_on: now(), consumers: [] };
      queues.set(name, q);
      ok(res, queueInfo(q));
    }],
    ['GET', route(account, '/queues/([^/]+)'), ({ params, res }) => ok(res, queueInfo(queue(params[0]!)))],

    // Workers.
    ['GET', route(account, '/workers/services/([^/]+)'), ({ params, res }) => {
      const found = script(params[0]!);
      ok(res, { id: params[0], default_environment: { environment: 'production', script: { id: params[0], migration_tag: found.migrationTag } } });
    }],
    ['GET', route(account, '/workers/scripts/([^/]+)/secrets'), ({ params, res }) => ok(res, (script(params[0]!), []))],
    ['GET', route(account, '/workers/scripts/([^/]+)/settings'), ({ params, res }) => ok(res, { bindings: script(params[0]!).metadata.bindings ?? [] })],
    ['GET', route(account, '/workers/subdomain'), ({ res }) => ok(res, { subdomain: 'operator' })],
    ['GET', route(account, '/workers/workers/([^/]+)'), ({ params, res }) => ok(res, { id: params[0], name: params[0], subdomain: script(params[0]!).subdomain })],
    ['GET', route(account, '/workers/scripts/([^/]+)/subdomain'), ({ params, res }) => ok(res, script(params[0]!).subdomain)],
    ['POST', route(account, '/workers/scripts/([^/]+)/subdomain'), ({ params, request, res }) => {
      const found = script(params[0]!);
      found.subdomain = { enabled: body(request).enabled === true, previews_enabled: body(request).previews_enabled === true };
      ok(res, found.subdomain);
    }],
    ['GET', route(account, '/workers/scripts/([^/]+)/deployments'), ({ params, res }) => {
      const { versions } = script(params[0]!);
      const latest = versions.at(-1);
      ok(res, { deployments: latest ? [{ id: `deployment-${latest}`, source: 'wrangler', strategy: 'percentage', created_on: now(), versions: [{ version_id: latest, percentage: 100 }] }] : [] });
    }],
    // First upload of a script with Durable Object migrations: the whole script at once.
    ['PUT', route(account, '/workers/scripts/([^/]+)'), async ({ params, request, res }) => {
      const uploaded = await upload(params[0]!, request);
      ok(res, { id: params[0], etag: `etag-${uploaded}`, deployment_id: uploaded, startup_time_ms: 1 });
    }],
    // Later uploads: a version, then a deployment of it at 100%.
    ['POST', route(account, '/workers/scripts/([^/]+)/versions'), async ({ params, request, res }) => {
      script(params[0]!);
      const uploaded = await upload(params[0]!, request);
      ok(res, { id: uploaded, number: scripts.get(params[0]!)!.versions.length, resources: { script: { etag: `etag-${uploaded}` } }, startup_time_ms: 1 });
    }],
    ['POST', route(account, '/workers/scripts/([^/]+)/deployments'), ({ params, request, res }) => {
      script(params[0]!);
      ok(res, { id: `deployment-${randomUUID()}`, source: 'wrangler', strategy: 'percentage', created_on: now(), versions: body(request).versions ?? [] });
    }],
    ['PATCH', route(account, '/workers/scripts/([^/]+)/script-settings'), ({ params, request, res }) => ok(res, (script(params[0]!), body(request)))],
    ['PUT', route(account, '/workers/scripts/([^/]+)/schedules'), ({ params, request, res }) => {
      const found = script(params[0]!);
      found.schedules = Array.isArray(request.body) ? request.body.filter(isJson) : [];
      ok(res, { schedules: found.schedules });
    }],
    ['GET', route(account, '/workers/scripts/([^/]+)/schedules'), ({ params, res }) => ok(res, { schedules: script(params[0]!).schedules })],

    // Queue consumers (the Worker's queue handler).
    ['GET', route(account, '/queues/([^/]+)/consumers'), ({ params, res }) => ok(res, queue(params[0]!).consumers)],
    ['POST', route(account, '/queues/([^/]+)/consumers'), ({ params, request, res }) => {
      const q = queue(params[0]!);
      const { script_name, ...rest } = body(request);
      // A queue has one consumer; the real API names its Worker `script`.
      if (q.consumers.length > 0) throw new ApiFailure(400, 11004, 'This queue already has a consumer');
      const consumer = { ...rest, script: script_name, consumer_id: randomUUID().replaceAll('-', ''), created_on: now() };
      q.consumers.push(consumer);
      ok(res, consumer);
    }],
    ['PUT', route(account, '/queues/([^/]+)/consumers/([^/]+)'), ({ params, request, res }) => {
      const q = queue(params[0]!);
      const index = q.consumers.findIndex((consumer) => consumer.consumer_id === params[1]);
      if (index < 0) throw new ApiFailure(404, 11000, 'Consumer does not exist');
      const { script_name, ...rest } = body(request);
      q.consumers[index] = { ...q.consumers[index], ...rest, ...(script_name ? { script: script_name } : {}) };
      ok(res, q.consumers[index]);
    }],
  ];

  /** Stores an uploaded Worker (multipart: a `metadata` part and one part per module) and returns its version id. */
  async function upload(name: string, request: RecordedRequest): Promise<string> {
    const form = await new Response(String(request.body), { headers: { 'Content-Type': String(request.headers['content-type']) } }).formData();
    const metadataPart = form.get('metadata');
    const metadata: unknown = JSON.parse(typeof metadataPart === 'string' ? metadataPart : await (metadataPart?.text() ?? '{}'));
    if (!isJson(metadata)) throw new ApiFailure(400, 10021, 'metadata must be an object');
    const previous = scripts.get(name);
    // `{type: "inherit"}` keeps the previous version's binding of that name (wrangler sends it for a
    // resource it found by name, with ?bindings_inherit=strict: one the previous version lacks is an error).
    if (Array.isArray(metadata.bindings)) {
      const before = new Map((Array.isArray(previous?.metadata.bindings) ? previous.metadata.bindings : []).filter(isJson).map((binding) => [binding.name, binding]));
      metadata.bindings = metadata.bindings.filter(isJson).map((binding) => {
        if (binding.type !== 'inherit') return binding;
        const inherited = before.get(binding.name);
        if (!inherited) throw new ApiFailure(400, 10021, `binding ${String(binding.name)} cannot be inherited: the previous version has no such binding`);
        return inherited;
      });
    }
    const migrations = isJson(metadata.migrations) ? metadata.migrations : undefined;
    if (migrations && migrations.old_tag !== previous?.migrationTag) throw new ApiFailure(400, 10079, `migration old_tag ${String(migrations.old_tag)} does not match ${String(previous?.migrationTag)}`);
    const version = randomUUID();
    scripts.set(name, {
      metadata,
      modules: [...form.keys()].filter((key) => key !== 'metadata'),
      migrationTag: migrations ? String(migrations.new_tag) : previous?.migrationTag,
      schedules: previous?.schedules ?? [],
      versions: [...(previous?.versions ?? []), version],
      subdomain: previous?.subdomain ?? { enabled: false, previews_enabled: false },
    });
    return version;
  }

  const upstream = await startUpstream(async (request, res) => {
    const url = new URL(request.path, 'http://127.0.0.1');
    const path = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length) : url.pathname;
    for (const [method, pattern, handler] of routes) {
      const match = method === request.method ? pattern.exec(path) : null;
      if (!match) continue;
      try {
        await handler({ request, params: match.slice(1), query: url.searchParams, res });
      } catch (err) {
        if (err instanceof ApiFailure) return fail(res, err.status, err.code, err.message);
        throw err;
      }
      return;
    }
    unknown.push(request);
    fail(res, 404, 10000, `The stand-in has no route for ${request.method} ${path}`);
  });

  return { ...upstream, accountId, apiBase: `${upstream.url}${PREFIX}`, databases, buckets, queues, scripts, unknown };
}

/** A path under the account, as a whole-path pattern with its own capture groups. */
function route(account: string, rest: string): RegExp {
  return new RegExp(`^${account}${rest}$`);
}

/**
 * Runs `sql` (one or more statements) on `sqlite` as D1's query API does: one result per
 * statement, rows as objects (or, for `/raw`, as arrays with their column names).
 */
function executeSql(sqlite: DatabaseSync, sql: string, bound: (string | number | null)[], raw: boolean): Json[] {
  const statements = splitStatements(sql);
  return statements.map((text, index) => {
    const statement = sqlite.prepare(text);
    const args = statements.length === 1 || index === 0 ? bound : [];
    const columns = statement.columns().map((column) => column.name);
    if (columns.length === 0) {
      const { changes, lastInsertRowid } = statement.run(...args);
      const meta = { changes: Number(changes), last_row_id: Number(lastInsertRowid), duration: 0.1, changed_db: Number(changes) > 0 };
      return { results: raw ? { columns: [], rows: [] } : [], success: true, meta };
    }
    const rows = statement.all(...args) as Record<string, unknown>[];
    const results = raw ? { columns, rows: rows.map((row) => columns.map((name) => row[name])) } : rows;
    return { results, success: true, meta: { changes: 0, last_row_id: 0, duration: 0.1, rows_read: rows.length } };
  });
}

/** Splits SQL into statements at semicolons outside quotes and comments (what migration files hold). */
function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const char = sql[i]!;
    if (quote) {
      current += char;
      if (char === quote) quote = null;
    } else if (char === "'" || char === '"' || char === '`') {
      quote = char;
      current += char;
    } else if (char === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end;
      current += '\n';
    } else if (char === ';') {
      if (current.trim()) statements.push(current.trim());
      current = '';
    } else {
      current += char;
    }
  }
  if (current.trim()) statements.push(current.trim());
  return statements;
}
