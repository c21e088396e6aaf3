import type { ProviderId } from './ids';

export interface ProviderConfig {
  name: string;
  /** The public endpoint; `<P>_BASE_URL` overrides it. Paths of the contract are appended to it. */
  defaultBaseUrl: string;
}

/** Every provider, once. Adding one is one line here and one folder beside this file. */
export const PROVIDERS = {
  openai: { name: 'OpenAI', defaultBaseUrl: 'https://api.openai.com' },
  groq: { name: 'Groq', defaultBaseUrl: 'https://api.groq.com/openai/v1' },
  together: { name: 'Together AI', defaultBaseUrl: 'https://api.together.xyz/v1' },
  deepseek: { name: 'DeepSeek', defaultBaseUrl: 'https://api.deepseek.com' },
  xai: { name: 'xAI', defaultBaseUrl: 'https://api.x.ai/v1' },
  mistral: { name: 'Mistral AI', defaultBaseUrl: 'https://api.mistral.ai/v1' },
  fireworks: { name: 'Fireworks AI', defaultBaseUrl: 'https://api.fireworks.ai/inference/v1' },
  anthropic: { name: 'Anthropic', defaultBaseUrl: 'https://api.anthropic.com' },
  gemini: { name: 'Google Gemini API', defaultBaseUrl: 'https://generativelanguage.googleapis.com' },
  fal: { name: 'fal.ai', defaultBaseUrl: 'https://queue.fal.run' },
  replicate: { name: 'Replicate', defaultBaseUrl: 'https://api.replicate.com' },
  elevenlabs: { name: 'ElevenLabs', defaultBaseUrl: 'https://api.elevenlabs.io' },
} as const satisfies Record<ProviderId, ProviderConfig>;

const envName = (id: ProviderId, suffix: 'API_KEY' | 'BASE_URL') => `${id.toUpperCase() as Uppercase<ProviderId>}_${suffix}` as const;

/** The provider's API key, or undefined when the operator has not turned it on. */
export function providerKey(env: Env, id: ProviderId): string | undefined {
  return env[envName(id, 'API_KEY')] || undefined;
}

export function isConfigured(env: Env, id: ProviderId): boolean {
  return providerKey(env, id) !== undefined;
}

export function providerBaseUrl(env: Env, id: ProviderId): string {
  return (env[envName(id, 'BASE_URL')] || PROVIDERS[id].defaultBaseUrl).replace(/\/+$/, '');
}
