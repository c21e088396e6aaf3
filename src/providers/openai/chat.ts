import { openAICompatibleChat } from '../openai-compatible/chat';

/**
 * OpenAI chat completions. Reasoning models reject `max_tokens` and newer ones document only
 * `max_completion_tokens` (https://platform.openai.com/docs/api-reference/chat/create), so the
 * limit always goes under that name.
 */
export const openaiChat = openAICompatibleChat({
  path: '/chat/completions',
  rename: { max_tokens: 'max_completion_tokens' },
});
