import { z } from '@hono/zod-openapi';
import { GatewayError } from '../errors';
import { listServedModels, type ServedModel } from '../providers/local-openai/discovery';
import { CATALOG_DATE } from './models/sources';
import type { CatalogModel } from './types';

/**
 * The models of a local OpenAI-compatible server (`LOCAL_OPENAI_BASE_URL`), as catalog entries
 * `local/<id>`: discovered from its `GET /v1/models`, kept per isolate for `FRESH_MS`, and
 * refreshed after that in the background (`waitUntil`) while the old list keeps serving, so only
 * the first request of an isolate that names a local model (or lists models) waits for the server.
 * Prices come from `LOCAL_OPENAI_PRICES` (USD per 1M tokens; 0 when unset). An id containing
 * `embed`, or listed in `LOCAL_OPENAI_EMBEDDING_MODELS`, is an embedding model (Ollama's list does
 * not say which models embed); every other id is a chat model.
 */

/** How long a discovered list is used before it is asked again. */
export const FRESH_MS = 60_000;

/** After a failed discovery, how long until the server is asked again (the old list, or none, serving meanwhile). */
export const RETRY_MS = 10_000;

/** The slug prefix of the local server's models. */
export const LOCAL_PREFIX = 'local/';

/** A model without `max_model_len` (Ollama, llama.cpp): what the hold and the listing assume. */
export const DEFAULT_LOCAL_CONTEXT = 32_768;

const Price = z.strictObject({ input: z.number().min(0).max(1_000), output: z.number().min(0).max(1_000).optional() });
const Prices = z.record(z.string().min(1), Price);
type LocalPrices = z.output<typeof Prices>;

/** `LOCAL_OPENAI_PRICES` read and checked; a 503 naming the member at fault when it is malformed. */
export function localPrices(env: Env): LocalPrices {
  const text = env.LOCAL_OPENAI_PRICES?.trim();
  if (!text) return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalidPrices('it is not JSON');
  }
  const parsed = Prices.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidPrices(`${issue.path.join('.') || 'the value'}: ${issue.message}`);
  }
  return parsed.data;
}

function invalidPrices(why: string): GatewayError {
  return new GatewayError('provider_unavailable', `The operator's LOCAL_OPENAI_PRICES is not valid (${why}); expected {"<model id>": {"input": USD per 1M tokens, "output": USD per 1M tokens}}.`);
}

interface Discovery {
  at: number;
  models: CatalogModel[];
  refreshing?: Promise<void> | undefined;
}

/** One list per configuration (tests run several in one isolate). */
const discoveries = new Map<string, Discovery>();

const configKey = (env: Env) => [env.LOCAL_OPENAI_BASE_URL, env.LOCAL_OPENAI_API_KEY, env.LOCAL_OPENAI_PRICES, env.LOCAL_OPENAI_EMBEDDING_MODELS].join('\n');

/** Whether `id` names a model of the local server. */
export const isLocalSlug = (id: string) => id.startsWith(LOCAL_PREFIX);

/** The local models known now for `env` (none before the first discovery, or when not configured). */
export function localModels(env: Env): readonly CatalogModel[] {
  if (!env.LOCAL_OPENAI_BASE_URL) return [];
  return discoveries.get(configKey(env))?.models ?? [];
}

/** A local model by slug, from the lists this isolate has discovered, the latest first. */
export function findLocalModel(id: string): CatalogModel | undefined {
  if (!isLocalSlug(id)) return undefined;
  const lists = [...discoveries.values()].sort((a, b) => b.at - a.at);
  for (const list of lists) {
    const found = list.models.find((model) => model.id === id);
    if (found) return found;
  }
  return undefined;
}

/**
 * Makes the local list known for `env`: waits for the server only on this isolate's first ask;
 * a list older than `FRESH_MS` is refreshed in the background. A failed discovery is logged and
 * keeps the old list (a first one: none), asked again in the background after `RETRY_MS`.
 * Throws a 503 when `LOCAL_OPENAI_PRICES` is malformed.
 */
export async function discoverLocalModels(env: Env, waitUntil?: (promise: Promise<unknown>) => void, now = Date.now()): Promise<void> {
  if (!env.LOCAL_OPENAI_BASE_URL) return;
  const prices = localPrices(env);
  const key = configKey(env);
  const known = discoveries.get(key);
  if (known && now - known.at < FRESH_MS) return;
  if (known) {
    known.refreshing ??= refresh(env, key, prices).finally(() => (known.refreshing = undefined));
    waitUntil?.(known.refreshing);
    return;
  }
  await refresh(env, key, prices);
}

async function refresh(env: Env, key: string, prices: LocalPrices): Promise<void> {
  try {
    const served = await listServedModels(env);
    discoveries.set(key, { at: Date.now(), models: served.map((model) => catalogEntry(model, prices, embeddingIds(env), env.LOCAL_OPENAI_BASE_URL!)) });
  } catch (err) {
    console.error(`local models not discovered: ${err instanceof Error ? err.message : String(err)}`);
    // Asked again in the background after RETRY_MS, not by every request while the server is down.
    discoveries.set(key, { at: Date.now() - FRESH_MS + RETRY_MS, models: discoveries.get(key)?.models ?? [] });
  }
}

function embeddingIds(env: Env): ReadonlySet<string> {
  return new Set((env.LOCAL_OPENAI_EMBEDDING_MODELS ?? '').split(',').map((id) => id.trim()).filter(Boolean));
}

/** A served model as the catalog's entry, priced as the operator set it. */
function catalogEntry(served: ServedModel, prices: LocalPrices, embedders: ReadonlySet<string>, base: string): CatalogModel {
  const price = prices[served.id];
  const common = {
    id: `${LOCAL_PREFIX}${served.id}`,
    displayName: served.id,
    maker: 'local',
    released: served.created ? new Date(served.created * 1000).toISOString().slice(0, 10) : CATALOG_DATE,
  };
  const source = { url: base, readOn: new Date().toISOString().slice(0, 10) };
  if (embedders.has(served.id) || /embed/i.test(served.id)) {
    return {
      ...common,
      type: 'embedding',
      maxInputTokens: served.max_model_len ?? 8_192,
      // The vector size is the server's; 0 says the gateway does not know it, and `dimensions` is passed on.
      defaultDimensions: 0,
      minDimensions: 1,
      maxDimensions: 65_536,
      routes: [{ provider: 'local_openai', upstreamId: served.id, inputPerMTok: price?.input ?? 0, source }],
    };
  }
  const contextLength = served.max_model_len ?? DEFAULT_LOCAL_CONTEXT;
  return {
    ...common,
    type: 'chat',
    contextLength,
    maxOutputTokens: contextLength,
    vision: false,
    // Whether a local model calls tools is the server's to say: the gateway passes them on.
    tools: true,
    pdf: false,
    routes: [{ provider: 'local_openai', upstreamId: served.id, price: { inputPerMTok: price?.input ?? 0, outputPerMTok: price?.output ?? 0 }, source }],
  };
}
