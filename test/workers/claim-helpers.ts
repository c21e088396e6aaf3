import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { call, freshIp, json, register, type Registered } from './helpers';

/** What `POST /agent/claim/init` answers. */
export interface ClaimInit {
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

export function claimInit(body: Record<string, unknown>): Promise<Response> {
  return call('/agent/claim/init', json(body));
}

export function claimPoll(claimToken: string): Promise<Response> {
  return call('/agent/claim/poll', json({ claim_token: claimToken }));
}

/** A registered agent with a fresh claim. */
export async function agentWithClaim(email?: string): Promise<{ agent: Registered; init: ClaimInit; claimId: string; path: string }> {
  const agent = await register();
  const res = await claimInit({ claim_token: agent.claim_token, ...(email ? { email } : {}) });
  expect(res.status).toBe(200);
  const init = (await res.json()) as ClaimInit;
  const path = new URL(init.verification_uri).pathname;
  return { agent, init, claimId: path.split('/').at(-1)!, path };
}

/** Moves a claim's deadline into the past, as 900 seconds would (the API reads the clock; the row is what ages). */
export async function ageClaim(claimId: string): Promise<void> {
  await env.DB.prepare('UPDATE claims SET expires_at = ? WHERE id = ?').bind(Date.now() - 1, claimId).run();
}

/**
 * A person's browser against the Worker: keeps cookies (by name; the tests visit one page at a
 * time), sends them back, and reads the CSRF token out of the page it was given.
 */
export class Visitor {
  readonly cookies = new Map<string, string>();
  /** Every `Set-Cookie` header received, as sent. */
  readonly setCookies: string[] = [];
  csrf = '';

  /** `send` is how requests reach the gateway: the Worker's `fetch` export unless a test runs the app with its own env. */
  constructor(
    readonly ip = freshIp(),
    readonly send: typeof call = call,
  ) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return { 'CF-Connecting-IP': this.ip, ...(cookie ? { Cookie: cookie } : {}), ...extra };
  }

  async get(path: string): Promise<{ res: Response; html: string }> {
    const res = await this.send(path, { headers: this.headers(), redirect: 'manual' });
    return this.#read(res);
  }

  /** A form post, as the page's own form sends it (its CSRF token included unless `fields.csrf` says otherwise). */
  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<{ res: Response; html: string }> {
    const body = new URLSearchParams({ csrf: this.csrf, ...fields });
    const res = await this.send(path, {
      method: 'POST',
      headers: this.headers({ 'Content-Type': 'application/x-www-form-urlencoded', ...headers }),
      body,
      redirect: 'manual',
    });
    return this.#read(res);
  }

  /** A JSON post as `/assets/claim.js` sends it: the CSRF token in `X-CSRF-Token`. */
  async postJson(path: string, body: unknown, headers: Record<string, string> = { 'X-CSRF-Token': this.csrf }): Promise<Response> {
    const res = await this.send(path, { method: 'POST', headers: this.headers({ 'Content-Type': 'application/json', ...headers }), body: JSON.stringify(body) });
    this.#keep(res);
    return res;
  }

  async #read(res: Response): Promise<{ res: Response; html: string }> {
    this.#keep(res);
    const html = await res.text();
    const token = /name="csrf" value="([A-Za-z0-9]+)"/.exec(html)?.[1];
    if (token) this.csrf = token;
    return { res, html };
  }

  #keep(res: Response): void {
    for (const header of res.headers.getSetCookie()) {
      this.setCookies.push(header);
      const [pair] = header.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (value === '' || /max-age=0/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

/** A visitor who has opened the claim page and entered the right code (303 back to the page). */
export async function visitorPastCode(path: string, userCode: string, ip = freshIp()): Promise<Visitor> {
  const visitor = new Visitor(ip);
  await visitor.get(path);
  const { res } = await visitor.post(path, { code: userCode });
  expect(res.status).toBe(303);
  expect(res.headers.get('Location')).toBe(path);
  return visitor;
}

/** A response whose body a `Visitor` already read, readable again (for `expectError`). */
export function reread(read: { res: Response; html: string }): Response {
  return new Response(read.html, { status: read.res.status, headers: read.res.headers });
}

/** The error code a refused page shows (`data-code`), e.g. `claim_attempts_exceeded`. */
export function pageErrorCode(html: string): string | undefined {
  return /id="form-error"[^>]*data-code="([a-z_]+)"/.exec(html)?.[1];
}
