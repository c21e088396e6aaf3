/**
 * The local D1 migrations of `npm start`. `wrangler d1 migrations apply --local` runs each file in
 * a local runtime of its own (about a second each, 17 s for 15 files on a fresh clone), so a
 * database that does not exist yet gets every file in one `wrangler d1 execute --file` instead,
 * written as wrangler writes them: each file followed by its row in `d1_migrations`. Later starts
 * use `migrations apply`, which then finds those rows and applies only what is new.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runWrangler, runWranglerAttached } from './wrangler.ts';

/** Where wrangler keeps local D1 databases (`.wrangler/state/v3/d1`); absent until the first one is made. */
const LOCAL_D1_STATE = join(ROOT, '.wrangler', 'state', 'v3', 'd1');
const MIGRATIONS_DIR = join(ROOT, 'migrations');
/** wrangler's own bookkeeping table and its definition (wrangler's `getCreateMigrationsTableQuery`). */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "d1_migrations"(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`;

/** Every migration file, in the order wrangler applies them (by name). */
export function migrationFiles(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .sort();
}

/** One script that applies `files` as `migrations apply` would, file by file, each with its bookkeeping row. */
export function combinedMigrations(files: string[], dir = MIGRATIONS_DIR): string {
  const steps = files.map((name) => `${readFileSync(join(dir, name), 'utf8')}\nINSERT INTO "d1_migrations" (name)\nvalues ('${name.replace(/'/g, "''")}');`);
  return [MIGRATIONS_TABLE, ...steps].join('\n');
}

/** Applies the local D1 migrations of the `DB` binding; resolves with wrangler's exit code. */
export async function applyLocalMigrations(): Promise<number> {
  if (existsSync(LOCAL_D1_STATE)) return runWranglerAttached(['d1', 'migrations', 'apply', 'DB', '--local']);
  const files = migrationFiles();
  const scratch = mkdtempSync(join(tmpdir(), 'gateway-migrations-'));
  try {
    const script = join(scratch, 'all.sql');
    writeFileSync(script, combinedMigrations(files));
    // Its per-statement results would fill the terminal: shown only when it fails.
    const executed = await runWrangler(['d1', 'execute', 'DB', '--local', `--file=${script}`]);
    if (executed.code !== 0) console.error(executed.output);
    else console.log(`A new local database: applied its ${files.length} migrations (${files[0]} to ${files.at(-1)}) in one step.`);
    return executed.code;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
