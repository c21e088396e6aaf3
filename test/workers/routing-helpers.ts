import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect, inject } from 'vitest';
import { createApp } from '../../src/app';
import { adminCredit, register } from './helpers';

/**
 * A gateway whose chat providers are the simulators (D34's tests): OpenAI and Together on the
 * OpenAI-shaped one, Anthropic and Gemini on their own, and Fireworks at a port that refuses
 * connections, so a Fireworks route fails before any byte.
 */
export const chatUrl = inject('chatUpstreamUrl');
export const anthropicUrl = inject('anthropicUpstreamUrl');
const app = createApp();
export const routingEnv = {
  ...env,
  OPENAI_API_KEY: 'sk-routing',
  OPENAI_BASE_URL: `${chatUrl}/v1`,
  TOGETHER_API_KEY: 'together-routing',
  TOGETHER_BASE_URL: `${chatUrl}/v1`,
  FIREWORKS_API_KEY: 'fw-routing',
  FIREWORKS_BASE_URL: 'http://127.0.0.1:9/inference/v1',
  ANTHROPIC_API_KEY: 'sk-ant-routing',
  ANTHROPIC_BASE_URL: `${anthropicUrl}/v1`,
} as Env;

/** A request to the gateway above, its waitUntil work (settlements, records) done before it returns. */
export async function send(path: string, apiKey: string, body: unknown, init: { method?: string; headers?: Record<string, string>; env?: Env; colo?: string } = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`https://gateway.test${path}`, {
      method: init.method ?? 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', ...init.headers },
      ...(init.method !== 'GET' && { body: JSON.stringify(body) }),
      // The data center the request reached (`request.cf.colo`), as Cloudflare sets it.
      ...(init.colo && { cf: { colo: init.colo } }),
    }),
    init.env ?? routingEnv,
    ctx,
  );
  // Streams are read whole here, so their settlement is part of the call.
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return new Response(text, { status: res.status, headers: res.headers });
}

export async function funded(usd = '1') {
  const agent = await register();
  expect((await adminCredit(agent.account_id, usd)).status).toBe(200);
  return agent;
}

export interface Lookup {
  model: string;
  provider: string | null;
  status: string;
  cost_usd: string;
  usage: Record<string, number>;
  attempts?: { provider: string; model: string; status: number | null; ms: number }[];
}

export async function lookup(apiKey: string, res: Response): Promise<Lookup> {
  const id = res.headers.get('X-Service-Request-Id')!;
  const found = await send(`/v1/requests/${id}`, apiKey, undefined, { method: 'GET' });
  expect(found.status).toBe(200);
  return found.json();
}

/** The bodies a simulator received whose text carries `nonce`. */
export async function received(upstreamUrl: string, nonce: string): Promise<Record<string, unknown>[]> {
  const recorded = (await (await fetch(`${upstreamUrl}/__recorded`)).json()) as { body?: Record<string, unknown> }[];
  return recorded.flatMap((request) => (request.body && JSON.stringify(request.body).includes(nonce) ? [request.body] : []));
}
