import type { ProviderId } from './ids';

/**
 * The operator's switch for a provider: `<P>_API_KEY` turns it on. Kept apart from the registry
 * so the catalog can ask which routes are live without loading every adapter.
 */

/** The environment name of a provider's key or base URL (`OPENAI_API_KEY`, `FAL_BASE_URL`). */
export const envName = (id: ProviderId, suffix: 'API_KEY' | 'BASE_URL') => `${id.toUpperCase() as Uppercase<ProviderId>}_${suffix}` as const;

/** The provider's API key, or undefined when the operator has not turned it on. */
export function providerKey(env: Env, id: ProviderId): string | undefined {
  return env[envName(id, 'API_KEY')] || undefined;
}

export function isConfigured(env: Env, id: ProviderId): boolean {
  return providerKey(env, id) !== undefined;
}
