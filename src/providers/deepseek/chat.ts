import { openAICompatibleChat } from '../openai-compatible/chat';

/**
 * DeepSeek (https://api-docs.deepseek.com/api/create-chat-completion): no `n` and no
 * `logit_bias`; `logprobs`/`top_logprobs` make its reasoner answer 400 and are announced, not
 * applied, for this group. Cache usage comes as `prompt_cache_hit_tokens`/`prompt_cache_miss_tokens`.
 */
export const deepseekChat = openAICompatibleChat({
  path: '/chat/completions',
  rename: { max_completion_tokens: 'max_tokens' },
  drop: ['n', 'logprobs', 'top_logprobs', 'logit_bias'],
});
