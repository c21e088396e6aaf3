import { openAICompatibleChat } from '../openai-compatible/chat';

/** Together AI: OpenAI-compatible, with `max_tokens`; usage arrives on the last chunk, and `eos` means `stop`. */
export const togetherChat = openAICompatibleChat({
  path: '/chat/completions',
  rename: { max_completion_tokens: 'max_tokens' },
});
