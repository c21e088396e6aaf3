/**
 * `npm start [-- wrangler dev arguments]`: on a fresh clone, creates `.dev.vars` with a generated
 * ADMIN_TOKEN and says what to do next; then applies the local D1 migrations and runs `wrangler dev`
 * with the arguments given (`npm start -- --port 8788`).
 */
import { ensureDevVars } from './dev-vars.ts';
import { applyLocalMigrations } from './local-migrations.ts';
import { ROOT, runWranglerAttached } from './wrangler.ts';

const args = process.argv.slice(2);

/** The port wrangler dev will listen on: `--port N`, `--port=N`, or wrangler.toml's 8787. */
function devPort(argv: string[]): string {
  const index = argv.findIndex((arg) => arg === '--port' || arg.startsWith('--port='));
  if (index < 0) return '8787';
  const arg = argv[index]!;
  return arg.includes('=') ? arg.slice('--port='.length) : (argv[index + 1] ?? '8787');
}

const token = ensureDevVars(ROOT);
if (token) {
  const port = devPort(args);
  console.log(
    [
      '',
      'Created .dev.vars from .dev.vars.example with a new operator token (shown this once; it stays in .dev.vars):',
      '',
      `  ADMIN_TOKEN=${token}`,
      '',
      'Next, in another terminal in this folder:',
      `  curl -s localhost:${port}/health`,
      '  then the curl block of the README\'s quick start: register an agent, credit it with this token, call a model.',
      'With no provider key, chat is answered by the free demo model gateway/echo. For real models set a key in',
      '.dev.vars (e.g. OPENAI_API_KEY=sk-...), or LOCAL_OPENAI_BASE_URL=http://localhost:11434/v1 for Ollama, and run npm start again.',
      '',
    ].join('\n'),
  );
}

const migrated = await applyLocalMigrations();
if (migrated !== 0) process.exit(migrated);
process.exit(await runWranglerAttached(['dev', ...args]));
