import { GatewayError } from '../errors';
import type { ChatRoute, ParamGroup } from '../catalog/types';
import type { Capability, ProviderConfig, ProviderTarget } from './adapters';
import { anthropic } from './anthropic';
import { cerebras } from './cerebras';
import { envName, isConfigured, providerKey } from './credentials';
import { deepseek } from './deepseek';
import { elevenlabs } from './elevenlabs';
import { fal } from './fal';
import { fireworks } from './fireworks';
import { gateway } from './gateway';
import { gemini } from './gemini';
import { groq } from './groq';
import type { ProviderId } from './ids';
import { localOpenai } from './local-openai';
import { mistral } from './mistral';
import { openai } from './openai';
import { replicate } from './replicate';
import { together } from './together';
import { xai } from './xai';

export { isConfigured, providerKey } from './credentials';

/**
 * Every provider, once, with everything it serves. Adding a provider is its folder beside this
 * file (an `index.ts` exporting its `ProviderConfig`) and one line here: its key is its id
 * (`ProviderId`, `<ID>_API_KEY`, `<ID>_BASE_URL`), and the compiler then asks for the rest (its
 * config's members, a chat provider's parameter group). Adding a capability to one is one member
 * of its config.
 */
export const PROVIDERS = {
  openai,
  groq,
  together,
  deepseek,
  xai,
  mistral,
  fireworks,
  anthropic,
  gemini,
  fal,
  replicate,
  elevenlabs,
  cerebras,
  local_openai: localOpenai,
  gateway,
} satisfies Record<string, ProviderConfig>;

type Registered = typeof PROVIDERS;

declare module './ids' {
  // The registry's keys are the provider ids (see ids.ts).
  interface ProviderRegistry extends Registered {}
}

/** Every provider id, in registry order. */
export const PROVIDER_IDS: readonly ProviderId[] = Object.keys(PROVIDERS).filter(isProviderId);

/** The adapter `provider` has for `capability`; undefined when it does not serve it. */
export function adapterOf<C extends Capability>(provider: ProviderId, capability: C): ProviderConfig[C] {
  const config: ProviderConfig = PROVIDERS[provider];
  return config[capability];
}

/** Whether `provider` serves `capability` (has that adapter). */
export function serves(provider: ProviderId, capability: Capability): boolean {
  return adapterOf(provider, capability) !== undefined;
}

/**
 * The adapter and the call target of a configured provider for `capability`: a 503 when the
 * operator has not turned it on, a 400 when it does not serve that (a route the catalog gave the
 * wrong provider never reaches another provider's wire format).
 */
export function adapterTarget<C extends Capability>(env: Env, provider: ProviderId, capability: C): { adapter: NonNullable<ProviderConfig[C]>; target: ProviderTarget } {
  const adapter = adapterOf(provider, capability);
  if (!adapter) throw new GatewayError('invalid_request', `${PROVIDERS[provider].name} serves no ${capability} on this gateway.`, { param: 'model' });
  if (!isConfigured(env, provider)) throw new GatewayError('provider_unavailable', `${provider} is not configured.`, { retryAfter: 60 });
  return { adapter, target: { base: providerBaseUrl(env, provider), apiKey: providerKey(env, provider) ?? '' } };
}

/**
 * The parameter group of a chat route (spec "Provider parameter support"): the route's own where
 * the catalog sets one, else its provider's.
 */
export function paramGroup(route: ChatRoute): ParamGroup {
  const config: ProviderConfig = PROVIDERS[route.provider];
  return route.paramGroup ?? config.paramGroup ?? 1;
}

/** Whether a stored value names a provider (a job's stored handle is read back from JSON). */
export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === 'string' && Object.hasOwn(PROVIDERS, value);
}

/** The provider's base URL with its version prefix, however the operator wrote `<P>_BASE_URL`. */
export function providerBaseUrl(env: Env, id: ProviderId): string {
  return withVersionPrefix(env[envName(id, 'BASE_URL')] || PROVIDERS[id].defaultBaseUrl, PROVIDERS[id].versionPrefix);
}

/**
 * Completes `base` with the part of `prefix` it lacks: the longest tail of its path that is a
 * head of `prefix` counts as written (`.../openai` + `/openai/v1` gives `.../openai/v1`).
 */
export function withVersionPrefix(base: string, prefix: string): string {
  const url = base.trim().replace(/\/+$/, '');
  const segments = prefix.split('/').filter(Boolean);
  for (let written = segments.length; written > 0; written--) {
    if (url.endsWith(`/${segments.slice(0, written).join('/')}`)) {
      return [url, ...segments.slice(written)].join('/');
    }
  }
  return [url, ...segments].join('/');
}
