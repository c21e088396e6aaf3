import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloudflareApi, type CloudflareApi } from '../upstreams/cloudflare-api';
import { isJson, type Json, type RecordedRequest } from '../upstreams/server';
import { copyProject } from './gateway-process';

const MIGRATIONS = new URL('../../migrations/', import.meta.url);

interface Run {
  code: number;
  output: string;
}

let api: CloudflareApi;
let home: string;
const dirs: string[] = [];

beforeAll(async () => {
  api = await startCloudflareApi();
  // wrangler keeps its login and logs under HOME: an empty one, so the operator's own login never counts.
  home = mkdtempSync(join(tmpdir(), 'gateway-deploy-home-'));
});

afterAll(async () => {
  await api?.stop();
  for (const dir of [home, ...dirs]) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = copyProject('gateway-deploy-');
  dirs.push(dir);
  return dir;
}

/** Runs a command in the project copy with wrangler pointed at the stand-in (and, unless `loggedOut`, its token). */
function run(dir: string, command: string, args: string[], { loggedOut = false } = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), CI: 'true', NO_COLOR: '1', WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_API_BASE_URL: api.apiBase };
  delete env.CLOUDFLARE_API_TOKEN;
  delete env.CLOUDFLARE_ACCOUNT_ID;
  if (!loggedOut) Object.assign(env, { CLOUDFLARE_API_TOKEN: 'stand-in-token', CLOUDFLARE_ACCOUNT_ID: api.accountId });
  return new Promise((resolve) => {
    execFile(command, args, { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

/** The calls that create or change a resource: D1 databases, buckets, queues, lifecycle rules, queue consumers. */
function creates(requests: RecordedRequest[]): string[] {
  const creating = [/\/d1\/database$/, /\/r2\/buckets$/, /\/queues$/, /\/lifecycle$/, /\/consumers$/];
  return requests
    .filter((request) => request.method !== 'GET')
    .map((request) => `${request.method} ${new URL(request.path, 'http://stand-in').pathname}`)
    .filter((call) => creating.some((pattern) => pattern.test(call)));
}

/** esbuild's metafile as scripts/build.ts writes it (build/meta.json): each output's static and dynamic imports and its sources. */
interface Metafile {
  outputs: Record<string, { bytes: number; inputs: Record<string, unknown>; imports: { path: string; kind: string; external?: boolean }[] }>;
}

/**
 * Libraries and modules of rare routes (funding, passkeys, page conversion, pages, MCP, x402
 * settlement, the Durable Objects' implementations) and the route groups' schemas: none may be
 * evaluated at startup.
 */
const RARE_ROUTE_CODE = [
  /node_modules\/zod\//,
  /node_modules\/@hono\/zod-openapi\//,
  /node_modules\/viem\//,
  /node_modules\/linkedom\//,
  /node_modules\/@mozilla\/readability\//,
  /node_modules\/turndown\//,
  /node_modules\/@simplewebauthn\//,
  /node_modules\/@modelcontextprotocol\//,
  /node_modules\/@x402\//,
  /node_modules\/drizzle-orm\//,
  /^src\/routes\/lazy\/(chat|media|web|account|admin)\.ts$/,
  /^src\/pages\/dashboard\//,
  /^durable-objects\/account\/account\.ts$/,
];

/** The outputs a module imports statically, transitively (what loading it evaluates), their sources and size. */
function staticClosure(metafile: Metafile, entry: string): { files: string[]; inputs: string[]; bytes: number } {
  const files = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const imported of metafile.outputs[file]!.imports) if (imported.kind === 'import-statement' && !imported.external) pending.push(imported.path);
  }
  const outputs = [...files].map((file) => metafile.outputs[file]!);
  return { files: [...files], inputs: outputs.flatMap((output) => Object.keys(output.inputs)), bytes: outputs.reduce((sum, output) => sum + output.bytes, 0) };
}

const bindingsByName = (metadata: Json): Map<string, Json> => new Map((Array.isArray(metadata.bindings) ? metadata.bindings : []).filter(isJson).map((binding) => [String(binding.name), binding]));

describe('npm run deploy against a stand-in of the Cloudflare API', () => {
  it('stops before any API call, saying how to log in, when there is no token and no wrangler login', async () => {
    const before = api.requests.length;
    const result = await run(project(), 'npm', ['run', 'deploy', '--silent'], { loggedOut: true });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('Not logged in to Cloudflare: nothing was changed.');
    expect(result.output).toContain('npx wrangler login');
    expect(result.output).toContain('CLOUDFLARE_API_TOKEN');
    expect(api.requests.length).toBe(before);
  }, 120_000);

  it('creates the database, bucket, queue and lifecycle rules, applies every migration and uploads the Worker with every binding; a second run creates nothing and says so', async () => {
    const dir = project();
    const first = await run(dir, 'npm', ['run', 'deploy', '--silent']);
    expect(first.output).toMatch(/^created D1 database ai-gateway \([0-9a-f-]{36}\)$/m);
    expect(first.code).toBe(0);
    expect(first.output).toMatch(/^created R2 bucket ai-gateway-media$/m);
    expect(first.output).toMatch(/^created queue ai-gateway-jobs$/m);
    expect(first.output).toMatch(/^R2 lifecycle rules of ai-gateway-media: set \(outputs\/ 31 days, uploads\/ 3 days, results\/ 30 days, responses\/ 31 days, responses-by-day\/ 32 days\)$/m);
    expect(first.output).toMatch(/^Worker ai-gateway: deployed version \S+/m);

    // Every migration ran on the database, in order, and its tables exist.
    const migrationFiles = readdirSync(MIGRATIONS).filter((name) => name.endsWith('.sql')).sort();
    const db = api.databases.get('ai-gateway')!;
    const applied = db.sqlite.prepare('SELECT name FROM d1_migrations ORDER BY id').all().map((row) => row.name);
    expect(applied).toEqual(migrationFiles);
    expect(first.output).toContain(`D1 migrations of DB: applied ${migrationFiles.length} (`);
    const tables = new Set(db.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((row) => String(row.name)));
    const created = migrationFiles.flatMap((file) => Array.from(readFileSync(new URL(file, MIGRATIONS), 'utf8').matchAll(/CREATE TABLE `([^`]+)`/g), (match) => match[1]!));
    expect(created.length).toBeGreaterThan(10);
    expect(created.filter((table) => !tables.has(table))).toEqual([]);

    expect(api.buckets.get('ai-gateway-media')!.lifecycleRules).toEqual([
      { id: 'gateway-outputs', enabled: true, conditions: { prefix: 'outputs/' }, deleteObjectsTransition: { condition: { type: 'Age', maxAge: 31 * 86_400 } } },
      { id: 'gateway-uploads', enabled: true, conditions: { prefix: 'uploads/' }, deleteObjectsTransition: { condition: { type: 'Age', maxAge: 3 * 86_400 } } },
      { id: 'gateway-results', enabled: true, conditions: { prefix: 'results/' }, deleteObjectsTransition: { condition: { type: 'Age', maxAge: 30 * 86_400 } } },
      { id: 'gateway-responses', enabled: true, conditions: { prefix: 'responses/' }, deleteObjectsTransition: { condition: { type: 'Age', maxAge: 31 * 86_400 } } },
      { id: 'gateway-response-days', enabled: true, conditions: { prefix: 'responses-by-day/' }, deleteObjectsTransition: { condition: { type: 'Age', maxAge: 32 * 86_400 } } },
    ]);

    // The Worker: every binding of wrangler.toml, the Durable Object migrations, the cron and the queue consumer.
    const worker = api.scripts.get('ai-gateway')!;
    const bindings = bindingsByName(worker.metadata);
    expect(bindings.get('DB')).toMatchObject({ type: 'd1', id: db.uuid });
    expect(bindings.get('MEDIA')).toMatchObject({ type: 'r2_bucket', bucket_name: 'ai-gateway-media' });
    expect(bindings.get('JOBS')).toMatchObject({ type: 'queue', queue_name: 'ai-gateway-jobs' });
    for (const [name, className] of [
      ['ACCOUNT', 'AccountDurableObject'],
      ['WEB_JOB', 'WebJobDurableObject'],
      ['FUNDING_WATCHER', 'FundingWatcherDurableObject'],
      ['SETTLEMENT_JOURNAL', 'SettlementJournalDurableObject'],
      ['X402_RELAYER', 'RelayerDurableObject'],
      ['ROUTE_HEALTH', 'RouteHealthDurableObject'],
    ]) {
      expect(bindings.get(name!)).toMatchObject({ type: 'durable_object_namespace', class_name: className });
    }
    expect(bindings.get('OUTPUT_RETENTION_DAYS')).toMatchObject({ type: 'plain_text', text: '30' });
    const tags = Array.from(readFileSync(new URL('../../wrangler.toml', import.meta.url), 'utf8').matchAll(/^tag = "([^"]+)"$/gm), (match) => match[1]);
    expect(tags.length).toBeGreaterThanOrEqual(4);
    expect(worker.migrationTag).toBe(tags.at(-1));
    expect(worker.schedules).toEqual([{ cron: '*/5 * * * *' }]);
    const consumers = api.queues.get('ai-gateway-jobs')!.consumers;
    expect(consumers).toMatchObject([{ type: 'worker', script: 'ai-gateway', settings: { batch_size: 10, max_retries: 10, max_wait_time_ms: 1000 } }]);
    expect(api.unknown.map((request) => `${request.method} ${request.path}`)).toEqual([]);

    const before = api.requests.length;
    const second = await run(dir, 'npm', ['run', 'deploy', '--silent']);
    expect(second.code).toBe(0);
    expect(second.output).toMatch(/^found D1 database ai-gateway \([0-9a-f-]{36}\)$/m);
    expect(second.output).toMatch(/^found R2 bucket ai-gateway-media$/m);
    expect(second.output).toMatch(/^found queue ai-gateway-jobs$/m);
    expect(second.output).toMatch(/^D1 migrations of DB: unchanged/m);
    expect(second.output).toMatch(/^R2 lifecycle rules of ai-gateway-media: unchanged/m);
    expect(second.output).toMatch(/^nothing to create; deployed version \S+$/m);
    expect(creates(api.requests.slice(before))).toEqual([]);
    expect(api.databases.size).toBe(1);
    expect(db.sqlite.prepare('SELECT name FROM d1_migrations ORDER BY id').all().map((row) => row.name)).toEqual(migrationFiles);
    expect(api.scripts.get('ai-gateway')!.versions).toHaveLength(2);
    expect(api.queues.get('ai-gateway-jobs')!.consumers).toHaveLength(1);
    expect(bindingsByName(api.scripts.get('ai-gateway')!.metadata).get('DB')).toMatchObject({ type: 'd1', id: db.uuid });
  }, 300_000);

  it('wrangler deploy --dry-run builds the Worker offline, with no credentials and no API call, the rare routes\' libraries outside what startup evaluates', async () => {
    const dir = project();
    const before = api.requests.length;
    const result = await run(dir, 'npx', ['wrangler', 'deploy', '--dry-run', '--outdir', join(dir, 'dist')], { loggedOut: true });
    expect(result.code).toBe(0);
    expect(result.output).toContain('--dry-run: exiting now.');
    expect(result.output).toMatch(/env\.DB\b/);
    expect(api.requests.length).toBe(before);

    // Every lazily imported module is uploaded beside the main one (docs/contributors/architecture.md, "Startup").
    const metafile = JSON.parse(readFileSync(join(dir, 'build', 'meta.json'), 'utf8')) as Metafile;
    const lazyModules = Object.keys(metafile.outputs).filter((file) => file.startsWith('build/lazy-modules/'));
    expect(lazyModules.length).toBeGreaterThan(20);
    expect(Number(/Total \((\d+) modules\)/.exec(result.output)?.[1])).toBe(lazyModules.length);
    expect(readdirSync(join(dir, 'dist', 'lazy-modules')).sort()).toEqual(lazyModules.map((file) => file.slice('build/lazy-modules/'.length)).sort());

    // What a cold isolate evaluates: the main module and what it imports statically.
    const { files, inputs, bytes } = staticClosure(metafile, 'build/index.mjs');
    const everyInput = Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs));
    for (const rare of RARE_ROUTE_CODE) {
      expect(everyInput.some((input) => rare.test(input)), `${rare} is in the build`).toBe(true);
      expect(inputs.filter((input) => rare.test(input)), `${rare} evaluated at startup`).toEqual([]);
    }
    expect(files.length).toBeLessThan(40);
    expect(bytes).toBeLessThan(150 * 1024);
  }, 120_000);
});
