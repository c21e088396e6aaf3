import type { ChatUsageWire, Usage } from './types';

/** Usage in the chat-completions shape: `prompt_tokens` counts every input token, cached or not. */
export function usageWire(usage: Usage): ChatUsageWire {
  const prompt = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.outputTokens,
    total_tokens: prompt + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens },
  };
}
