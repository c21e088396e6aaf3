import { MODELS } from '../catalog/models';
import type { ProviderId } from './ids';

/**
 * The operator's switch for a provider: `<P>_API_KEY` turns it on. Kept apart from the registry
 * so the catalog can ask which routes are live without loading every adapter. Two providers are
 * switched otherwise: the local OpenAI-compatible server by its base URL (its key is optional),
 * and the built-in demo model by `DEMO_MODEL` (`demoModelOn`).
 */

/** The environment name of a provider's key or base URL (`OPENAI_API_KEY`, `FAL_BASE_URL`). */
export const envName = (id: ProviderId, suffix: 'API_KEY' | 'BASE_URL') => `${id.toUpperCase() as Uppercase<ProviderId>}_${suffix}` as const;

/** The provider's API key, or undefined when the operator has not turned it on. */
export function providerKey(env: Env, id: ProviderId): string | undefined {
  return env[envName(id, 'API_KEY')] || undefined;
}

export function isConfigured(env: Env, id: ProviderId): boolean {
  if (id === 'gateway') return demoModelOn(env);
  if (id === 'local_openai') return Boolean(env.LOCAL_OPENAI_BASE_URL);
  return providerKey(env, id) !== undefined;
}

/** Providers that serve some catalog chat model, found once from the catalog's data. */
let chatProviders: ReadonlySet<ProviderId> | undefined;

/**
 * Whether the demo model `gateway/echo` is served: `DEMO_MODEL=on` always, `off` never, `auto`
 * (the default, or any other value) while no real chat provider is configured, so a first
 * `npm start` with no key still answers a chat.
 */
export function demoModelOn(env: Env): boolean {
  const mode = env.DEMO_MODEL?.trim().toLowerCase();
  if (mode === 'on') return true;
  if (mode === 'off') return false;
  chatProviders ??= new Set(MODELS.flatMap((model) => (model.type === 'chat' ? model.routes.map((route) => route.provider) : [])).filter((id) => id !== 'gateway'));
  for (const id of chatProviders) if (providerKey(env, id) !== undefined) return false;
  return !env.LOCAL_OPENAI_BASE_URL;
}
