import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { randomBase62, sha256Hex } from '../../src/accounts/credentials';
import { createApp } from '../../src/app';
import { database } from '../../src/db';
import { insertSession } from '../../src/db/sessions';
import { SECURE_SESSION_COOKIE } from '../../src/human/sessions';
import { Visitor } from './claim-helpers';
import { accountStub, ADMIN_TOKEN, adminCredit, call, json, register, type Registered } from './helpers';

/**
 * What the dashboard tests share: an account with a signed-in human (a session made as
 * `startSession` makes one), charges written through the account's Durable Object as a billed
 * route writes them, and keys made by the operator API.
 */

const app = createApp();
/** The test env with OpenAI configured (never called here), so the catalog has live models to allow. */
const gatewayEnv = { ...env, OPENAI_API_KEY: 'sk-dashboard-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } as Env;

/** A request to the app under `gatewayEnv`, as `call` sends one to the Worker. */
export async function send(path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`https://gateway.test${path}`, init), gatewayEnv, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

export interface Owner {
  agent: Registered;
  visitor: Visitor;
}

/** A registered, funded agent whose human holds a live session (the dashboard's CSRF token read). */
export async function signedInOwner(usd = '10'): Promise<Owner> {
  const agent = await register();
  expect((await adminCredit(agent.account_id, usd)).status).toBe(200);
  const token = randomBase62(43);
  const now = Date.now();
  await insertSession(database(env), { tokenHash: await sha256Hex(token), accountId: agent.account_id, createdAt: now, expiresAt: now + 86_400_000, revokedAt: null });
  const visitor = new Visitor(undefined, send);
  visitor.cookies.set(SECURE_SESSION_COOKIE, token);
  expect((await visitor.get('/dashboard')).res.status).toBe(200);
  return { agent, visitor };
}

/** A billed request by `apiKey`: a hold for `purpose` settled at `micros`, as the chat route does it. */
export async function charge(accountId: string, apiKey: string, purpose: string, micros: number, requestId = `req_${crypto.randomUUID().replaceAll('-', '')}`) {
  const stub = accountStub(accountId);
  const hold = await stub.authorizeHold({ keyHash: await sha256Hex(apiKey), minMicros: micros, maxMicros: micros, purpose, requestId });
  if (!hold.ok) throw new Error(`hold refused: ${hold.reason}`);
  await stub.settle(hold.holdId, micros);
  return requestId;
}

/** A key made by the operator API: its full text and its record. */
export async function operatorKey(accountId: string, body: Record<string, unknown>): Promise<{ apiKey: string; id: string }> {
  const res = await call(`/admin/accounts/${accountId}/keys`, json(body, { Authorization: `Bearer ${ADMIN_TOKEN}` }));
  expect(res.status).toBe(201);
  const created = (await res.json()) as { api_key: string; key: { id: string } };
  return { apiKey: created.api_key, id: created.key.id };
}

/** The id of the agent's own key (the one registration made). */
export async function firstKeyId(accountId: string): Promise<string> {
  const [key] = await accountStub(accountId).keys();
  return key!.id;
}

/** The full key a created-key page shows once. */
export function shownKey(html: string): string | undefined {
  return /id="new-key"[^>]*>(ak-[0-9A-Za-z]{45})</.exec(html)?.[1];
}

/** `GET /agent/account` with a key: what the API says of it. */
export function accountWith(apiKey: string): Promise<Response> {
  return call('/agent/account', { headers: { Authorization: `Bearer ${apiKey}` } });
}
