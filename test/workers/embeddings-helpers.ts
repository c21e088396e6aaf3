import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect, inject } from 'vitest';
import { createApp } from '../../src/app';
import { EMBEDDINGS_KEYS } from './global-setup';
import { adminCredit, register } from './helpers';

// The embeddings tests (embeddings.test.ts, embeddings-billing.test.ts): the app with its four embeddings upstreams played locally.

export const upstreams = inject('embeddingsUpstreams');
const app = createApp();

/** Every embeddings provider configured, each at its simulator. */
export const embeddingsEnv = {
  ...env,
  OPENAI_API_KEY: EMBEDDINGS_KEYS.openai,
  OPENAI_BASE_URL: `${upstreams.openai}/v1`,
  MISTRAL_API_KEY: EMBEDDINGS_KEYS.mistral,
  MISTRAL_BASE_URL: `${upstreams.mistral}/v1`,
  TOGETHER_API_KEY: EMBEDDINGS_KEYS.together,
  TOGETHER_BASE_URL: `${upstreams.together}/v1`,
  GEMINI_API_KEY: EMBEDDINGS_KEYS.gemini,
  GEMINI_BASE_URL: `${upstreams.gemini}/v1beta`,
} as Env;

export interface EmbeddingsAnswer {
  object: string;
  data: { object: string; index: number; embedding: number[] | string }[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

/** A request through the app, its waitUntil work done. */
export async function post(path: string, apiKey: string | null, body: unknown, headers: Record<string, string> = {}, target: Env = embeddingsEnv): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`https://gateway.test${path}`, { method: 'POST', headers: { ...(apiKey && { Authorization: `Bearer ${apiKey}` }), 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) }),
    target,
    ctx,
  );
  await res.clone().arrayBuffer();
  await waitOnExecutionContext(ctx);
  return res;
}

export const embed = (apiKey: string, body: Record<string, unknown>) => post('/v1/embeddings', apiKey, body);

export async function funded(usd = '1') {
  const agent = await register();
  if (usd !== '0') expect((await adminCredit(agent.account_id, usd)).status).toBe(200);
  return agent;
}

interface Recorded {
  path: string;
  body?: Record<string, unknown>;
}

/** What a simulator received of the requests whose body mentions `nonce`. */
export async function received(upstream: string, nonce: string): Promise<Recorded[]> {
  const recorded = (await (await fetch(`${upstream}/__recorded`)).json()) as Recorded[];
  return recorded.filter((request) => JSON.stringify(request.body ?? {}).includes(nonce));
}

/** Decodes OpenAI's base64 vector: little-endian float32s. */
export function decodeBase64(vector: string): number[] {
  const bytes = Uint8Array.from(atob(vector), (c) => c.charCodeAt(0));
  return [...new Float32Array(bytes.buffer)];
}

/** Micro-dollars for `tokens` at `perMTok` USD per million, rounded half up (D16). */
export const costOf = (tokens: number, perMTok: number) => Math.floor((tokens * Math.round(perMTok * 1e6) + 500_000) / 1_000_000);
