import type { ProviderId } from '../providers/ids';
import type { ParamGroup } from './types';

/**
 * Each chat provider's parameter group (spec "Provider parameter support"), read from its API
 * reference. A route may override it in the catalog.
 * - 1: OpenAI, and Together, xAI and Fireworks, which document `n`, `logprobs`/`top_logprobs`,
 *   `logit_bias`, `response_format`, `seed` and both penalties.
 * - 2: Groq (only `n: 1`; no logprobs or logit_bias), DeepSeek (no `n`; no logit_bias) and
 *   Mistral (no logprobs or logit_bias; `seed` is its `random_seed`).
 * - 3: Anthropic Messages and Gemini generateContent, whose formats are not chat-completions.
 */
export const PROVIDER_PARAM_GROUP: Partial<Record<ProviderId, ParamGroup>> = {
  openai: 1,
  together: 1,
  xai: 1,
  fireworks: 1,
  groq: 2,
  deepseek: 2,
  mistral: 2,
  anthropic: 3,
  gemini: 3,
};
