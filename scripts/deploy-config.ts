/**
 * The names `npm run deploy` provisions, read from wrangler.toml: the Worker, its D1 databases,
 * R2 buckets and queues, and OUTPUT_RETENTION_DAYS. A small reader for the shapes this project's
 * wrangler.toml uses (`[table]`, `[[array]]`, `key = "string"` or number), not a TOML parser.
 */
import { readFileSync } from 'node:fs';

export interface DeployConfig {
  workerName: string;
  databases: { binding: string; name: string }[];
  buckets: string[];
  queues: string[];
  /** Days generated media stay hosted ([vars] OUTPUT_RETENTION_DAYS). */
  outputRetentionDays: number;
}

type Table = Record<string, string>;

/** Every table of the file in order, each with its header (`vars`, `d1_databases`, ...) and its string values. */
function tables(text: string): { header: string; values: Table }[] {
  const found: { header: string; values: Table }[] = [{ header: '', values: {} }];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s+#.*$/, '').trim();
    if (!line || line.startsWith('#')) continue;
    const header = /^\[\[?([^\]]+)\]\]?$/.exec(line);
    if (header) {
      found.push({ header: header[1]!.trim(), values: {} });
      continue;
    }
    const pair = /^([A-Za-z0-9_-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|(-?\d+))\s*$/.exec(line);
    if (pair) found.at(-1)!.values[pair[1]!] = pair[2] ?? pair[3] ?? pair[4]!;
  }
  return found;
}

export function parseDeployConfig(text: string): DeployConfig {
  const all = tables(text);
  const of = (header: string) => all.filter((table) => table.header === header).map((table) => table.values);
  const workerName = all[0]!.values.name;
  if (!workerName) throw new Error('wrangler.toml has no top-level name.');
  const databases = of('d1_databases').map((table) => {
    if (!table.binding || !table.database_name) throw new Error('Each [[d1_databases]] in wrangler.toml needs a binding and a database_name.');
    return { binding: table.binding, name: table.database_name };
  });
  const buckets = of('r2_buckets').map((table) => table.bucket_name ?? '');
  const queues = [...of('queues.producers'), ...of('queues.consumers')].map((table) => table.queue ?? '');
  if (buckets.includes('') || queues.includes('')) throw new Error('Each R2 bucket and queue in wrangler.toml needs its name (bucket_name, queue).');
  const retention = Number(of('vars')[0]?.OUTPUT_RETENTION_DAYS ?? '30');
  if (!Number.isInteger(retention) || retention < 1) throw new Error('OUTPUT_RETENTION_DAYS in wrangler.toml [vars] must be a whole number of days.');
  return { workerName, databases, buckets: [...new Set(buckets)], queues: [...new Set(queues)], outputRetentionDays: retention };
}

export function readDeployConfig(path: string): DeployConfig {
  return parseDeployConfig(readFileSync(path, 'utf8'));
}
