import { openAICompatibleChat } from '../openai-compatible/chat';

/**
 * Fireworks returns streamed usage "in the very last chunk on the response (i.e. the one having
 * finish_reason set)" without being asked (https://docs.fireworks.ai/tools-sdks/openai-compatibility).
 */
export const fireworksChat = openAICompatibleChat({
  path: '/chat/completions',
  rename: { max_completion_tokens: 'max_tokens' },
  requestStreamUsage: false,
});
