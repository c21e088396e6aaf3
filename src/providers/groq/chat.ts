import { openAICompatibleChat } from '../openai-compatible/chat';

/**
 * Groq answers 400 to `logprobs`, `logit_bias`, `top_logprobs` and `messages[].name`
 * (https://console.groq.com/docs/openai, "Currently Unsupported OpenAI Features"); the route
 * announces those as not applied. Streamed usage also rides on the finish chunk as `x_groq.usage`.
 */
export const groqChat = openAICompatibleChat({
  path: '/chat/completions',
  rename: { max_completion_tokens: 'max_tokens' },
  drop: ['logprobs', 'top_logprobs', 'logit_bias', 'messages[].name'],
});
