import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * What the browser tests share: Debian's Chromium through playwright-core, tabs that record
 * every console error, uncaught exception and CSP violation, an optional virtual passkey
 * authenticator (CDP), and the phone-width check. Screenshots go to `ARTIFACTS` (gitignored).
 */

export const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
}

export interface Tab {
  context: BrowserContext;
  page: Page;
  /** Console errors, uncaught exceptions and CSP violations on any page the tab showed. */
  problems: string[];
}

export interface TabOptions {
  viewport?: { width: number; height: number };
  /** A passkey authenticator built in: resident keys, user verification that succeeds. */
  passkey?: boolean;
  /** Console errors of pages under this origin are not ours (a simulator's stand-in page). */
  ignoreConsoleFrom?: string;
}

export async function openTab(browser: Browser, options: TabOptions = {}): Promise<Tab> {
  const context = await browser.newContext({ viewport: options.viewport ?? DESKTOP });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    const url = message.location().url;
    if (message.type() === 'error' && !(options.ignoreConsoleFrom && url.startsWith(options.ignoreConsoleFrom))) problems.push(`console: ${message.text()} (${url})`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.exposeFunction('reportCspViolation', (violation: string) => problems.push(`csp: ${violation}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
      void report(`${event.violatedDirective} blocked ${event.blockedURI} on ${event.documentURI}`);
    });
  });
  if (options.passkey) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
  }
  return { context, page, problems };
}

/** The page scrolls nowhere sideways, and each selector's first match lies within `width`. */
export async function fitsWidth(page: Page, selectors: string[], width = PHONE.width): Promise<void> {
  const overflow = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(overflow.scroll).toBeLessThanOrEqual(overflow.client);
  for (const selector of selectors) {
    const box = await page.locator(selector).first().boundingBox();
    expect(box, selector).not.toBeNull();
    expect(box!.x, selector).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, selector).toBeLessThanOrEqual(width);
  }
}

/**
 * An agent's claim without an email, done in `page` as a person does it: the link with the code
 * filled in, Continue, then a new passkey, up to the dashboard.
 */
export async function claimInBrowser(page: Page, base: string, claimToken: string): Promise<void> {
  const res = await fetch(`${base}/agent/claim/init`, { method: 'POST', body: JSON.stringify({ claim_token: claimToken }) });
  expect(res.status).toBe(200);
  const init = (await res.json()) as { verification_uri: string; verification_uri_complete: string };
  await page.goto(init.verification_uri_complete);
  await Promise.all([page.waitForURL(init.verification_uri), page.getByRole('button', { name: 'Continue' }).click()]);
  await Promise.all([page.waitForURL(`${base}/dashboard`), page.getByRole('button', { name: 'Confirm with a passkey' }).click()]);
}

/** Money as the pages write it: cents, and the micro-dollars only below a cent. */
export function shownUsd(micros: number): string {
  if (micros > 0 && micros < 10_000) return `$${(micros / 1e6).toFixed(6).replace(/0+$/, '')}`;
  const cents = Math.round(micros / 10_000);
  return `$${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations of the page (run through the protocol: no page script may be inlined). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string | null; nodes: unknown[] }[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
}
