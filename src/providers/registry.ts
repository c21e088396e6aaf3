import type { ProviderId } from './ids';

export interface ProviderConfig {
  name: string;
  /** The public endpoint as the provider's own SDK writes it, version prefix included. */
  defaultBaseUrl: string;
  /**
   * The path prefix all of the provider's endpoints share. `<P>_BASE_URL` is accepted with or
   * without it (`https://api.openai.com/v1` as the `openai` SDK writes it, or
   * `https://api.openai.com`); adapters append their endpoint to the base with the prefix.
   */
  versionPrefix: string;
}

/** Every provider, once. Adding one is one line here and one folder beside this file. */
export const PROVIDERS = {
  openai: { name: 'OpenAI', defaultBaseUrl: 'https://api.openai.com/v1', versionPrefix: '/v1' },
  groq: { name: 'Groq', defaultBaseUrl: 'https://api.groq.com/openai/v1', versionPrefix: '/openai/v1' },
  together: { name: 'Together AI', defaultBaseUrl: 'https://api.together.xyz/v1', versionPrefix: '/v1' },
  // DeepSeek serves the same API with and without `/v1`; its documentation writes none.
  deepseek: { name: 'DeepSeek', defaultBaseUrl: 'https://api.deepseek.com', versionPrefix: '' },
  xai: { name: 'xAI', defaultBaseUrl: 'https://api.x.ai/v1', versionPrefix: '/v1' },
  mistral: { name: 'Mistral AI', defaultBaseUrl: 'https://api.mistral.ai/v1', versionPrefix: '/v1' },
  fireworks: { name: 'Fireworks AI', defaultBaseUrl: 'https://api.fireworks.ai/inference/v1', versionPrefix: '/inference/v1' },
  anthropic: { name: 'Anthropic', defaultBaseUrl: 'https://api.anthropic.com/v1', versionPrefix: '/v1' },
  gemini: { name: 'Google Gemini API', defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta', versionPrefix: '/v1beta' },
  fal: { name: 'fal.ai', defaultBaseUrl: 'https://queue.fal.run', versionPrefix: '' },
  replicate: { name: 'Replicate', defaultBaseUrl: 'https://api.replicate.com/v1', versionPrefix: '/v1' },
  elevenlabs: { name: 'ElevenLabs', defaultBaseUrl: 'https://api.elevenlabs.io/v1', versionPrefix: '/v1' },
} as const satisfies Record<ProviderId, ProviderConfig>;

const envName = (id: ProviderId, suffix: 'API_KEY' | 'BASE_URL') => `${id.toUpperCase() as Uppercase<ProviderId>}_${suffix}` as const;

/** The provider's API key, or undefined when the operator has not turned it on. */
export function providerKey(env: Env, id: ProviderId): string | undefined {
  return env[envName(id, 'API_KEY')] || undefined;
}

export function isConfigured(env: Env, id: ProviderId): boolean {
  return providerKey(env, id) !== undefined;
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
