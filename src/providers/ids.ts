/** Every upstream the gateway can speak to; `<P>_API_KEY` in the environment turns one on. */
export const PROVIDER_IDS = [
  'openai',
  'groq',
  'together',
  'deepseek',
  'xai',
  'mistral',
  'fireworks',
  'anthropic',
  'gemini',
  'fal',
  'replicate',
  'elevenlabs',
] as const;

export type ProviderId = (typeof PROVIDER_IDS)[number];
