import type { ChatUsageWire, Usage } from './types';

/** All prompt tokens written to the cache, whatever their lifetime. */
export const cacheWrites = (usage: Usage): number => usage.cacheWriteTokens + (usage.cacheWrite1hTokens ?? 0);

/**
 * Usage in the chat-completions shape: `prompt_tokens` counts every input token, cached or not,
 * and its details say how many were cache reads and cache writes (D31); `completion_tokens`
 * includes reasoning, and its details say how much.
 */
export function usageWire(usage: Usage): ChatUsageWire {
  const prompt = usage.inputTokens + usage.cacheReadTokens + cacheWrites(usage);
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.outputTokens,
    total_tokens: prompt + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens, cache_write_tokens: cacheWrites(usage) },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}

/** What the request lookup stores for a chat request (D26, D31): the same counts, flat. */
export function usageRecord(usage: Usage): Record<string, number> {
  const wire = usageWire(usage);
  return {
    prompt_tokens: wire.prompt_tokens,
    completion_tokens: wire.completion_tokens,
    cached_tokens: usage.cacheReadTokens,
    cache_write_tokens: cacheWrites(usage),
    cache_write_1h_tokens: usage.cacheWrite1hTokens ?? 0,
    reasoning_tokens: usage.reasoningTokens ?? 0,
  };
}
