import { openAICompatibleChat } from '../openai-compatible/chat';

/**
 * Mistral (https://docs.mistral.ai/api/#tag/chat) names the seed `random_seed` and the limit
 * `max_tokens`, and answers 422 `extra_forbidden` to any member outside its schema: no
 * `stream_options` (usage comes on the last chunk unasked), no logprobs or `logit_bias`, no `name`
 * on user messages.
 */
export const mistralChat = openAICompatibleChat({
  path: '/chat/completions',
  rename: { seed: 'random_seed', max_completion_tokens: 'max_tokens' },
  drop: ['stream_options', 'logprobs', 'top_logprobs', 'logit_bias', 'messages[].name'],
});
