import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

import { ADMIN_TOKEN } from './test/workers/constants.ts';

const WORKERS_TESTS = ['src/**/*.test.ts', 'durable-objects/**/*.test.ts', 'test/workers/**/*.test.ts'];

/**
 * Files that need a runtime of their own: they read state the whole runtime shares (a sweep over
 * every row, an isolate's memory of distances). Every other file shares one
 * workerd per Vitest worker, because starting workerd and loading the gateway's modules costs each
 * isolated file about 9 s, most of the suite's time (docs/contributors/tests.md).
 */
const OWN_RUNTIME = [
  // Sweeps read (and delete) every row past a time, whoever made it.
  'test/workers/account-expiry.test.ts',
  'test/workers/human-records.test.ts',
  'test/workers/media-jobs.test.ts',
  'test/workers/render-once.test.ts',
  'test/workers/storage-sweep.test.ts',
  'test/workers/upload-expiry.test.ts',
  'test/workers/video-jobs.test.ts',
  // A cold isolate's memory of round trips decides where a settlement goes.
  'test/workers/settlement-journal.test.ts',
];

export default defineConfig(async () => {
  const migrations = await readD1Migrations('./migrations');
  // Unit and whole-request tests inside workerd, on real local D1, R2, Durable Objects and Queues.
  const workers = (name: string, isolate: boolean, include: string[], exclude: string[]) => ({
    plugins: [
      cloudflareTest({
        // The sources themselves, not wrangler.toml's `main` (scripts/build.ts's output, docs/contributors/architecture.md, "Startup").
        main: './src/index.ts',
        wrangler: { configPath: './wrangler.toml' },
        // The route breaker off: files share one runtime, and their failing routes must not skip routes in another
        // file; test/workers/route-breaker.test.ts turns it on in the env it passes, for routes no other file fails.
        miniflare: { bindings: { TEST_MIGRATIONS: migrations, ADMIN_TOKEN, ROUTE_BREAKER_FAILURES: '0' } },
      }),
    ],
    test: {
      name,
      include,
      exclude,
      isolate,
      setupFiles: ['./test/workers/apply-migrations.ts', './test/workers/warm-lazy-modules.ts'],
      // After the node project's group (its two workers would compete with workerd's).
      sequence: { groupOrder: 1 },
      // Runs in Node: the upstream simulators that tests inside workerd call over 127.0.0.1.
      globalSetup: ['./test/workers/global-setup.ts'],
      // The gateway's own log lines (one per request, docs/operators/observability.md) would bury the test output.
      onConsoleLog: (log: string) => (log.startsWith('{"event":') ? false : undefined),
    },
  });
  return {
    test: {
      projects: [
        workers('workers', false, WORKERS_TESTS, OWN_RUNTIME),
        workers('workers-isolated', true, OWN_RUNTIME, []),
        {
          // End-to-end tests against `wrangler dev` with the official SDKs, and tools that need Node.
          test: {
            name: 'node',
            include: ['test/node/**/*.test.ts'],
            environment: 'node',
            globalSetup: ['./test/node/global-setup.ts'],
            // Most of an end-to-end file's time is its gateway starting and its clients waiting, so
            // two run at once even on 2 cores (Vitest's default there is one worker).
            maxWorkers: 2,
            // Vitest runs projects of different worker counts as separate groups, one after the other.
            sequence: { groupOrder: 0 },
            testTimeout: 60_000,
            hookTimeout: 120_000,
          },
        },
      ],
    },
  };
});
