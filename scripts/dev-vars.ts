/**
 * `.dev.vars` on a fresh clone: `.dev.vars.example` copied with a generated ADMIN_TOKEN, so the
 * operator API works from the first `npm start`. An existing `.dev.vars` is never touched.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** 32 random bytes, base64url: 43 characters that survive a shell, a header and a .dev.vars line. */
export function generateAdminToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The example's text with its `ADMIN_TOKEN=` line set to `token` (added when the example lacks one). */
export function devVarsWithToken(example: string, token: string): string {
  const line = /^ADMIN_TOKEN=.*$/m;
  return line.test(example) ? example.replace(line, `ADMIN_TOKEN=${token}`) : `${example.trimEnd()}\nADMIN_TOKEN=${token}\n`;
}

/**
 * Writes `<root>/.dev.vars` from `<root>/.dev.vars.example` when it does not exist, readable by
 * its owner only. Returns the generated token, or null when the file was already there.
 */
export function ensureDevVars(root: string): string | null {
  const path = join(root, '.dev.vars');
  if (existsSync(path)) return null;
  const token = generateAdminToken();
  // 'wx': fails rather than overwrite if another start created the file a moment ago.
  writeFileSync(path, devVarsWithToken(readFileSync(join(root, '.dev.vars.example'), 'utf8'), token), { flag: 'wx', mode: 0o600 });
  return token;
}
