import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { HELLO_WORDS } from '../upstreams/scenarios';
import { exampleNames, startGateway, type RunningGateway } from './gateway-process';

const base = inject('gatewayUrl');
const dir = inject('gatewayDir');
const README = new URL('../../README.md', import.meta.url);
const EXAMPLE = new URL('../../.dev.vars.example', import.meta.url);
const MIGRATIONS = new URL('../../migrations', import.meta.url).pathname;

/** The shell block of the README's quick start that runs "in another terminal", one command per entry. */
function quickStartCommands(): string[] {
  const readme = readFileSync(README, 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Deploy'));
  const block = /In another terminal[^\n]*\n+```sh\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (!block) throw new Error('The README has no quick-start block to run in another terminal.');
  return block.replace(/\\\n\s*/g, ' ').split('\n').filter((line) => line.trim() && !line.trim().startsWith('#'));
}

/** Where the commands run: a gateway's URL and its project copy (its `.dev.vars`). */
interface Target {
  url: string;
  dir: string;
}

/** Runs the commands verbatim in one bash, in the gateway's project copy, and returns each one's output. */
function runInShell(target: Target, commands: string[], extra: string[]): string[] {
  const marker = '@@command-done@@';
  const script = [...commands, ...extra].map((command) => `${command}\necho; echo ${marker}`).join('\n');
  const port = new URL(target.url).port;
  const output = execFileSync('bash', ['-euo', 'pipefail', '-c', script.replaceAll('localhost:8787', `localhost:${port}`)], { cwd: target.dir, encoding: 'utf8' });
  return output.split(`${marker}\n`).map((text) => text.trim());
}

describe('configuration from .dev.vars under npm start', () => {
  it('binds every name of .dev.vars.example in the Worker', () => {
    const bound = new Set(Array.from(inject('gatewayStartLog').matchAll(/env\.([A-Z0-9_]+) \(/g), (match) => match[1]!));
    const names = exampleNames();
    expect(names.length).toBeGreaterThan(30);
    expect(names.filter((name) => !bound.has(name))).toEqual([]);
  });
});

describe('the README quick start, run verbatim in a fresh clone with no provider key', () => {
  let fresh: RunningGateway | undefined;
  beforeAll(async () => {
    // No .dev.vars: `npm start` writes it from the example, with no provider key in it.
    fresh = await startGateway({ devVars: null });
  }, 180_000);
  afterAll(() => fresh?.stop());

  it('serves health, registers an agent, takes the admin credit, shows it, and ends with a completion from the demo model and its cost', () => {
    const commands = quickStartCommands();
    expect(commands.length).toBeGreaterThanOrEqual(8);
    const outputs = runInShell(fresh!, commands, ['echo "$KEY"']);
    const parsed = (index: number) => JSON.parse(outputs[index]!) as Record<string, unknown>;
    const byCommand = (pattern: RegExp) => commands.findIndex((command) => pattern.test(command));

    expect(parsed(byCommand(/\/health/))).toMatchObject({ status: 'ok' });
    const credit = parsed(byCommand(/\/credits/));
    expect(credit).toMatchObject({ balance_usd: '12.500000' });
    const account = parsed(byCommand(/\/agent\/account/));
    expect(account).toMatchObject({ account_id: credit.account_id, balance_usd: '12.500000', claimed: false });

    // The chat call prints the completion, then its cost line.
    const [body, costLine] = splitLast(outputs[byCommand(/\/v1\/chat\/completions/)]!);
    const completion = JSON.parse(body) as { model: string; choices: { message: { content: string } }[]; usage: { total_tokens: number } };
    expect(completion.model).toBe('gateway/echo');
    // The demo model's answer (src/providers/gateway/echo.ts): the last user message after its prefix.
    expect(completion.choices[0]!.message.content).toBe('Echo from the demo model gateway/echo: Say hello');
    expect(completion.usage.total_tokens).toBeGreaterThan(0);
    expect(costLine).toBe('X-Service-Cost: 0.000000');
    expect(outputs[commands.length]).toMatch(/^ak-[A-Za-z0-9]{45}$/);
  });

  it('answers Claude Code on the demo model too (its tools and long prompt taken, none called)', { timeout: 150_000 }, async () => {
    const outputs = runInShell(fresh!, quickStartCommands(), ['echo "$KEY"']);
    const key = outputs[quickStartCommands().length]!;
    const home = await mkdtemp(join(tmpdir(), 'claude-demo-'));
    try {
      const child = spawn(join(process.cwd(), 'node_modules/.bin/claude'), ['-p', 'Say hello', '--output-format', 'json', '--model', 'gateway/echo'], {
        cwd: home,
        timeout: 120_000,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH, HOME: home, ANTHROPIC_BASE_URL: fresh!.url, ANTHROPIC_API_KEY: key, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      await new Promise((resolve) => child.on('close', resolve));
      const result = JSON.parse(stdout) as { is_error: boolean; result: string };
      expect(result.is_error, stdout).toBe(false);
      expect(result.result).toContain('Echo from the demo model gateway/echo:');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('bills the demo chat at zero: the balance stays at the credit', async () => {
    const outputs = runInShell(fresh!, quickStartCommands(), ['echo "$KEY"']);
    const key = outputs[quickStartCommands().length]!;
    const res = await fetch(`${fresh!.url}/agent/account`, { headers: { Authorization: `Bearer ${key}` } });
    expect(((await res.json()) as { balance_usd: string }).balance_usd).toBe('12.500000');
  });
});

/** The text before its last line, and that line. */
function splitLast(text: string): [string, string] {
  const at = text.lastIndexOf('\n');
  return [text.slice(0, at), text.slice(at + 1)];
}

describe('npm start with provider keys in .dev.vars', () => {
  it('reaches a compatible provider whose base URL in .dev.vars carries /v1 (Together)', async () => {
    const registered = await fetch(`${base}/agent/register`, {
      method: 'POST',
      headers: { 'CF-Connecting-IP': '198.51.100.77' },
      body: JSON.stringify({ type: 'anonymous' }),
    });
    const { api_key, account_id } = (await registered.json()) as { api_key: string; account_id: string };
    const dotDevVars = readFileSync(`${dir}/.dev.vars`, 'utf8');
    const adminToken = /^ADMIN_TOKEN=(.*)$/m.exec(dotDevVars)![1]!;
    await fetch(`${base}/admin/accounts/${account_id}/credits`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ amount_usd: '1.00', reason: 'e2e' }),
    });
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${api_key}` },
      body: JSON.stringify({ model: 'deepseek/deepseek-v3.1', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('X-Service-Cost'))).toBeGreaterThan(0);
    expect(((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe(HELLO_WORDS.join(''));
  });
});

describe('npm start on a fresh clone, with no .dev.vars', () => {
  it('creates .dev.vars from the example with a generated ADMIN_TOKEN the admin API accepts, prints it once, and a second start leaves the file as it was', async () => {
    const gateway = await startGateway({ devVars: null });
    try {
      const written = readFileSync(`${gateway.dir}/.dev.vars`, 'utf8');
      const token = /^ADMIN_TOKEN=(.*)$/m.exec(written)?.[1] ?? '';
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(written.replace(/^ADMIN_TOKEN=.*$/m, 'ADMIN_TOKEN=')).toBe(readFileSync(EXAMPLE, 'utf8'));
      expect(gateway.output()).toContain(`ADMIN_TOKEN=${token}`);
      expect(gateway.output()).toContain('curl -s localhost:');
      // A new local database gets every migration in one step, booked as wrangler books them.
      expect(gateway.output()).toMatch(new RegExp(`applied its ${readdirSync(MIGRATIONS).filter((name) => name.endsWith('.sql')).length} migrations`));

      const registered = await fetch(`${gateway.url}/agent/register`, { method: 'POST', body: JSON.stringify({ type: 'anonymous' }) });
      const { account_id } = (await registered.json()) as { account_id: string };
      const credit = (authorization: string) =>
        fetch(`${gateway.url}/admin/accounts/${account_id}/credits`, {
          method: 'POST',
          headers: { Authorization: authorization },
          body: JSON.stringify({ amount_usd: '1.00', reason: 'fresh clone' }),
        });
      expect((await credit('Bearer not-the-token')).status).toBe(401);
      expect((await credit(`Bearer ${token}`)).status).toBe(200);

      await gateway.crash();
      await gateway.restart();
      expect(readFileSync(`${gateway.dir}/.dev.vars`, 'utf8')).toBe(written);
      expect(gateway.output().split(token).length - 1).toBe(1);
      // The second start asks wrangler, which finds every migration of the first start booked.
      expect(gateway.output()).toContain('No migrations to apply');
    } finally {
      await gateway.stop();
    }
  }, 180_000);
});
