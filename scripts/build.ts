/**
 * The Worker's build (`[build] command` in wrangler.toml, so `wrangler dev`, `wrangler deploy` and
 * `wrangler check startup` run it first): esbuild with code splitting, from `src/index.ts` to
 * `build/` (docs/contributors/architecture.md, "Startup"). The main module holds what startup evaluates; every module the
 * gateway imports with `import()` (route groups, pages, Durable Object implementations, the queue
 * consumer, viem, Stripe, linkedom...) lands in `build/lazy-modules/`, which wrangler uploads as
 * additional ES modules (`find_additional_modules`) and workerd evaluates only when first imported.
 * The options are those wrangler's own bundler used (conditions, target, defines, `.sql` as text).
 *
 * `node scripts/build.ts [outdir]`; GATEWAY_MINIFY=false keeps names (bench/profile.mjs), and
 * GATEWAY_ENTRY (a path from the repository's root) builds another entry file instead of
 * `src/index.ts`: the bench's variants of the gateway (`bench/entries/`).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { ROOT } from './wrangler.ts';

/** The folder wrangler.toml's `main` points into. */
export const BUILD_DIR = join(ROOT, 'build');
/** esbuild's metafile beside the modules (not uploaded: only `.mjs` files are modules). */
export const METAFILE = 'meta.json';

const NODE_BUILTINS = new Set(builtinModules.filter((name) => !name.startsWith('_')));

/** `node:x` and bare Node built-ins stay imports of workerd's own modules (`nodejs_compat`), as wrangler leaves them. */
const nodeBuiltins: Plugin = {
  name: 'node-builtins',
  setup(b) {
    b.onResolve({ filter: /^(node:|cloudflare:)/ }, (args) => ({ path: args.path, external: true }));
    b.onResolve({ filter: /^[a-z_]+(\/[a-z_]+)?$/ }, (args) => (NODE_BUILTINS.has(args.path) ? { path: `node:${args.path}`, external: true } : undefined));
  },
};

export async function buildWorker(outdir = BUILD_DIR): Promise<void> {
  const minify = process.env.GATEWAY_MINIFY !== 'false';
  const nodeEnv = JSON.stringify(process.env.NODE_ENV || 'production');
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: { index: join(ROOT, process.env.GATEWAY_ENTRY || 'src/index.ts') },
    absWorkingDir: ROOT,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    // wrangler.toml's ESModule rule names this folder alone: the Vitest pool reads the same rules,
    // and a `**/*.js` rule would take every module of the tests for an ES module as is.
    outExtension: { '.js': '.mjs' },
    chunkNames: 'lazy-modules/[name]-[hash]',
    target: 'es2024',
    supported: { 'import-source': true, using: true },
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    // Minified, the modules are about 720 KiB gzip instead of 1,020 (the 1 MB target, docs/operators/limits.md,
    // "Platform limits"), and the A/B in bench/results.md puts the chat path back at its cost before issue 22.
    minify,
    // keepNames would wrap every function created per request in a __name() call: measurable on the
    // chat hot path (bench/README.md), and names only matter in stack traces.
    keepNames: false,
    sourcemap: false,
    metafile: true,
    logLevel: 'warning',
    define: {
      'process.env.NODE_ENV': nodeEnv,
      'global.process.env.NODE_ENV': nodeEnv,
      'globalThis.process.env.NODE_ENV': nodeEnv,
      'navigator.userAgent': '"Cloudflare-Workers"',
    },
    loader: { '.js': 'jsx', '.mjs': 'jsx', '.cjs': 'jsx', '.sql': 'text' },
    // The MCP SDK imports ajv statically; the gateway never validates with it (src/mcp/server.ts
    // refuses elicitation instead), so ajv, which compiles schemas with eval, stays out of the build.
    alias: { ajv: './src/mcp/ajv-stub.ts', 'ajv-formats': './src/mcp/ajv-formats-stub.ts' },
    plugins: [
      nodeBuiltins,
      {
        // @simplewebauthn/browser's UMD build, served to the pages as /assets/webauthn.js (src/pages/webauthn-browser.js).
        name: 'webauthn-browser-text',
        setup(b) {
          b.onLoad({ filter: /@simplewebauthn[\\/]browser[\\/]dist[\\/]bundle[\\/]index\.umd\.min\.js$/ }, async (args) => ({
            contents: await import('node:fs/promises').then((fs) => fs.readFile(args.path, 'utf8')),
            loader: 'text',
          }));
        },
      },
    ],
  });
  writeFileSync(join(outdir, METAFILE), JSON.stringify(result.metafile));
}

if (import.meta.url === `file://${process.argv[1]}`) await buildWorker(process.argv[2] ?? BUILD_DIR);
