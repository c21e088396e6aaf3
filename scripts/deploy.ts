/**
 * `npm run deploy`: from a clone to a running deployment, through wrangler's CLI. Finds or creates
 * the D1 database, R2 bucket and queue wrangler.toml names, applies the D1 migrations remotely,
 * sets the bucket's lifecycle rules and deploys the Worker. Each step prints one line; a second
 * run creates nothing and says so. wrangler resolves the D1 database by its `database_name`, so
 * nothing is written back to wrangler.toml.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDeployConfig, type DeployConfig } from './deploy-config.ts';
import { describeRules, desiredRules, rulesMatch } from './r2-lifecycle.ts';
import { ROOT, runWrangler, type WranglerResult } from './wrangler.ts';

class DeployFailure extends Error {}

const NOT_LOGGED_IN = [
  'Not logged in to Cloudflare: nothing was changed.',
  'Run `npx wrangler login` (it opens a browser), or set CLOUDFLARE_API_TOKEN (an API token with',
  'Workers Scripts, D1, Workers R2 Storage and Queues edit permissions) and CLOUDFLARE_ACCOUNT_ID,',
  'then run `npm run deploy` again.',
].join('\n');

/** Runs wrangler and fails the deploy with its output when it exits non-zero; returns stdout and stderr together. */
async function wrangler(args: string[]): Promise<string> {
  return (await wranglerResult(args)).output;
}

async function wranglerResult(args: string[]): Promise<WranglerResult> {
  const result = await runWrangler(args);
  if (result.code !== 0) throw failure(args, result);
  return result;
}

function failure(args: string[], result: WranglerResult): DeployFailure {
  return new DeployFailure(`\`wrangler ${args.join(' ')}\` failed (exit ${result.code}):\n${result.output.trim()}`);
}

/**
 * Stops early, before any change, when wrangler has no credentials: no API token in the
 * environment and no `wrangler login` (asked of `wrangler whoami`, which also sees an expired login).
 */
async function requireLogin(): Promise<void> {
  if (process.env.CLOUDFLARE_API_TOKEN || (process.env.CLOUDFLARE_API_KEY && process.env.CLOUDFLARE_EMAIL)) return;
  const result = await runWrangler(['whoami', '--json']);
  const status = /\{[\s\S]*\}/.exec(result.stdout)?.[0];
  let loggedIn = false;
  try {
    loggedIn = (JSON.parse(status ?? '{}') as { loggedIn?: unknown }).loggedIn === true;
  } catch {
    // not JSON: wrangler printed an error instead
  }
  if (!loggedIn && status?.includes('"loggedIn"')) throw new DeployFailure(NOT_LOGGED_IN);
  if (result.code !== 0 || !loggedIn) throw failure(['whoami', '--json'], result);
}

interface Found {
  /** What one line says: `D1 database ai-gateway (<uuid>)`. */
  label: string;
  created: boolean;
}

async function ensureDatabase(name: string): Promise<Found> {
  const listed = JSON.parse((await wranglerResult(['d1', 'list', '--json'])).stdout) as { uuid: string; name: string }[];
  const existing = listed.find((db) => db.name === name);
  if (existing) return { label: `D1 database ${name} (${existing.uuid})`, created: false };
  const output = await wrangler(['d1', 'create', name]);
  const uuid = /database_id\s*=\s*"([^"]+)"/.exec(output)?.[1] ?? /"database_id":\s*"([^"]+)"/.exec(output)?.[1] ?? 'id not printed';
  return { label: `D1 database ${name} (${uuid})`, created: true };
}

async function ensureBucket(name: string): Promise<Found> {
  const listed = await wrangler(['r2', 'bucket', 'list']);
  const names = Array.from(listed.matchAll(/^name:\s+(\S+)\s*$/gm), (match) => match[1]);
  if (names.includes(name)) return { label: `R2 bucket ${name}`, created: false };
  await wrangler(['r2', 'bucket', 'create', name]);
  return { label: `R2 bucket ${name}`, created: true };
}

async function ensureQueue(name: string): Promise<Found> {
  const info = await runWrangler(['queues', 'info', name]);
  if (info.code === 0) return { label: `queue ${name}`, created: false };
  if (!info.output.includes('does not exist')) throw failure(['queues', 'info', name], info);
  await wrangler(['queues', 'create', name]);
  return { label: `queue ${name}`, created: true };
}

/** Applies pending D1 migrations remotely; returns the line to print and whether anything ran. */
async function migrate(binding: string): Promise<{ line: string; changed: boolean }> {
  const output = await wrangler(['d1', 'migrations', 'apply', binding, '--remote']);
  if (/No migrations to apply/.test(output)) return { line: `D1 migrations of ${binding}: unchanged (none pending)`, changed: false };
  const applied = [...new Set(Array.from(output.matchAll(/\b(\d{4}_[\w.-]+?\.sql)\b/g), (match) => match[1]))];
  return { line: `D1 migrations of ${binding}: applied ${applied.length} (${applied.join(', ')})`, changed: true };
}

async function setLifecycle(bucket: string, outputRetentionDays: number): Promise<{ line: string; changed: boolean }> {
  const rules = desiredRules(outputRetentionDays);
  const listed = await wrangler(['r2', 'bucket', 'lifecycle', 'list', bucket]);
  if (rulesMatch(listed, rules)) return { line: `R2 lifecycle rules of ${bucket}: unchanged (${describeRules(rules)})`, changed: false };
  const dir = mkdtempSync(join(tmpdir(), 'gateway-lifecycle-'));
  try {
    const file = join(dir, 'lifecycle.json');
    writeFileSync(file, JSON.stringify({ rules }));
    await wrangler(['r2', 'bucket', 'lifecycle', 'set', bucket, '--file', file, '--force']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { line: `R2 lifecycle rules of ${bucket}: set (${describeRules(rules)})`, changed: true };
}

async function deployWorker(name: string): Promise<string> {
  const output = await wrangler(['deploy']);
  const version = /Current Version ID:\s*(\S+)/.exec(output)?.[1] ?? 'unknown';
  const url = /https:\/\/\S+\.workers\.dev/.exec(output)?.[0];
  return `Worker ${name}: deployed version ${version}${url ? ` at ${url}` : ''}`;
}

async function main(config: DeployConfig): Promise<void> {
  await requireLogin();

  const found = await Promise.all([
    ...config.databases.map((db) => ensureDatabase(db.name)),
    ...config.buckets.map((bucket) => ensureBucket(bucket)),
    ...config.queues.map((queue) => ensureQueue(queue)),
  ]);
  for (const resource of found) console.log(`${resource.created ? 'created' : 'found'} ${resource.label}`);

  // Migrations before the new code: every migration is additive, so the running version keeps working.
  const changes = await Promise.all([...config.databases.map((db) => migrate(db.binding)), ...config.buckets.map((bucket) => setLifecycle(bucket, config.outputRetentionDays))]);
  for (const change of changes) console.log(change.line);

  const deployed = await deployWorker(config.workerName);
  console.log(deployed);

  const created = found.filter((resource) => resource.created).map((resource) => resource.label);
  const changed = changes.filter((change) => change.changed).length;
  const version = /deployed version (\S+)/.exec(deployed)?.[1];
  if (created.length === 0 && changed === 0) console.log(`nothing to create; deployed version ${version}`);
  else console.log(`created ${created.length} resource${created.length === 1 ? '' : 's'}, ${changed} change${changed === 1 ? '' : 's'} applied; deployed version ${version}`);
  console.log('Secrets stay with `npx wrangler secret put NAME` (docs/operators/deploy.md).');
}

try {
  await main(readDeployConfig(join(ROOT, 'wrangler.toml')));
} catch (err) {
  console.error(err instanceof DeployFailure ? err.message : err);
  process.exit(1);
}
