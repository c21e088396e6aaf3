import { openAICompatibleChat } from '../openai-compatible/chat';

/**
 * Cerebras's chat completions (https://inference-docs.cerebras.ai/api-reference/chat-completions)
 * answer 400 to `frequency_penalty`, `presence_penalty`, `logit_bias`, `parallel_tool_calls` and
 * `service_tier` (https://inference-docs.cerebras.ai/resources/openai): the route announces those
 * as not applied. Streamed usage (asked with `stream_options.include_usage`) rides on the finish
 * chunk rather than a chunk of its own; `time_info` is passed through.
 */
export const cerebrasChat = openAICompatibleChat({
  path: '/chat/completions',
  unapplied: ['frequency_penalty', 'presence_penalty', 'logit_bias', 'parallel_tool_calls', 'service_tier'],
});
