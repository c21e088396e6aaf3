import { openAICompatibleChat } from '../openai-compatible/chat';

/**
 * xAI counts reasoning tokens outside `completion_tokens` but bills them as output
 * (https://docs.x.ai/docs/key-information/consumption-and-rate-limits).
 */
export const xaiChat = openAICompatibleChat({
  path: '/chat/completions',
  rename: { max_completion_tokens: 'max_tokens' },
  reasoningOutsideCompletion: true,
});
