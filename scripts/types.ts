/**
 * `npm run types`: `wrangler types`, then the Durable Object classes typed from the sources. The
 * Worker's `main` is the build (`build/index.mjs`, scripts/build.ts), which has no types of its
 * own, so wrangler's `import("./build/index")` becomes `import("./src/index")`, the module it is built from.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runWranglerAttached } from './wrangler.ts';

const code = await runWranglerAttached(['types', '--strict-vars=false', '--env-file=/dev/null']);
if (code !== 0) process.exit(code);
const file = join(ROOT, 'worker-configuration.d.ts');
writeFileSync(file, readFileSync(file, 'utf8').replaceAll('import("./build/index")', 'import("./src/index")'));
