import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { expect } from 'vitest';
import { adminCredit, register } from './helpers';
import { app, gateway } from './org-helpers';

// D27 and D35's tests (sub-key-bounds.test.ts, sub-key-data.test.ts): a key's calls through the app with a chat upstream.

export interface Minted {
  api_key: string;
  id: string;
  parent_key_id: string | null;
}

/** A request through the app with upstreams configured; the whole answer read and its waitUntil work done. */
export async function send(path: string, apiKey: string, init: { method?: string; body?: unknown } = {}, target: Env = gateway): Promise<Response> {
  const ctx = createExecutionContext();
  const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}` };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
  const res = await app.fetch(new Request(`https://gateway.test${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) }), target, ctx);
  await res.clone().arrayBuffer();
  await waitOnExecutionContext(ctx);
  return res;
}

export const chatBody = { model: 'openai/gpt-4o-mini', max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] };

export const chat = (apiKey: string) => send('/v1/chat/completions', apiKey, { body: chatBody });

export const deleteKey = (apiKey: string, keyId: string) => send(`/agent/keys/${keyId}`, apiKey, { method: 'DELETE' });

export async function mint(apiKey: string, body: Record<string, unknown>): Promise<Minted> {
  const res = await send('/agent/keys', apiKey, { body });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

export async function funded(usd = '5') {
  const agent = await register();
  expect((await adminCredit(agent.account_id, usd)).status).toBe(200);
  return agent;
}

/** `spent_usd` of one key as `GET /agent/keys` lists it to `apiKey`. */
export async function spentOf(apiKey: string, keyId: string): Promise<string | undefined> {
  const res = await send('/agent/keys', apiKey);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { id: string; spent_usd: string }[] }).data.find((key) => key.id === keyId)?.spent_usd;
}
