import { env, exports } from 'cloudflare:workers';
import { expect } from 'vitest';
import { ADMIN_TOKEN } from './constants';

export { ADMIN_TOKEN };

/** A request to the real Worker (its `fetch` export), as a client would send it. */
export function call(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(`https://gateway.test${path}`, init));
}

export function json(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export function bearer(token: string, init: RequestInit = {}): RequestInit {
  return { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${token}` } };
}

/** Each test registers from its own address so the per-IP limits never couple tests. */
export function freshIp(): string {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return `203.${octet()}.${octet()}.${octet()}`;
}

export interface Registered {
  account_id: string;
  api_key: string;
  claim_token: string;
  fund_url: string;
  expires_unless_funded_at: string;
  instructions: string;
  welcome_credits_usd?: string;
}

export async function register(ip = freshIp()): Promise<Registered> {
  const res = await call('/agent/register', json({ type: 'anonymous' }, { 'CF-Connecting-IP': ip }));
  expect(res.status).toBe(201);
  return res.json();
}

export async function adminCredit(accountId: string, amountUsd: string, idempotencyKey?: string): Promise<Response> {
  const headers: Record<string, string> = { Authorization: `Bearer ${ADMIN_TOKEN}` };
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  return call(`/admin/accounts/${accountId}/credits`, json({ amount_usd: amountUsd, reason: 'test' }, headers));
}

export function accountStub(accountId: string) {
  return env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
}

export async function expectError(res: Response, status: number, code: string, type: string, param?: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('Content-Type')).toMatch(/application\/json/);
  expect(res.headers.get('X-Service-Request-Id')).toMatch(/^req_[0-9a-f]{32}$/);
  const body = (await res.json()) as { error: { code: string; type: string; message: string; param?: string } };
  expect(body.error.code).toBe(code);
  expect(body.error.type).toBe(type);
  expect(body.error.message.length).toBeGreaterThan(0);
  if (param === undefined) expect(body.error.param).toBeUndefined();
  else expect(body.error.param).toBe(param);
  return body;
}
