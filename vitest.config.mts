import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

import { ADMIN_TOKEN } from './test/workers/constants.ts';

export default defineConfig(async () => {
  const migrations = await readD1Migrations('./migrations');
  return {
    test: {
      projects: [
        {
          // Unit and whole-request tests inside workerd, on real local D1, R2, Durable Objects and Queues.
          plugins: [
            cloudflareTest({
              wrangler: { configPath: './wrangler.toml' },
              miniflare: { bindings: { TEST_MIGRATIONS: migrations, ADMIN_TOKEN } },
            }),
          ],
          test: {
            name: 'workers',
            include: ['src/**/*.test.ts', 'durable-objects/**/*.test.ts', 'test/workers/**/*.test.ts'],
            setupFiles: ['./test/workers/apply-migrations.ts'],
            // Runs in Node: the upstream simulators that tests inside workerd call over 127.0.0.1.
            globalSetup: ['./test/workers/global-setup.ts'],
            // The gateway's own log lines (one per request, README "Observability") would bury the test output.
            onConsoleLog: (log: string) => (log.startsWith('{"event":') ? false : undefined),
          },
        },
        {
          // End-to-end tests against `wrangler dev` with the official SDKs, and tools that need Node.
          test: {
            name: 'node',
            include: ['test/node/**/*.test.ts'],
            environment: 'node',
            globalSetup: ['./test/node/global-setup.ts'],
            testTimeout: 60_000,
            hookTimeout: 120_000,
          },
        },
      ],
    },
  };
});
