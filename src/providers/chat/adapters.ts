import { anthropicChat } from '../anthropic/chat';
import { deepseekChat } from '../deepseek/chat';
import { fireworksChat } from '../fireworks/chat';
import { geminiChat } from '../gemini/chat';
import { groqChat } from '../groq/chat';
import type { ProviderId } from '../ids';
import { mistralChat } from '../mistral/chat';
import { openaiChat } from '../openai/chat';
import { togetherChat } from '../together/chat';
import { xaiChat } from '../xai/chat';
import type { ChatAdapter } from './types';

/** The chat adapter of every provider that serves chat; media-only providers have none. */
export const CHAT_ADAPTERS = {
  openai: openaiChat,
  groq: groqChat,
  together: togetherChat,
  deepseek: deepseekChat,
  xai: xaiChat,
  mistral: mistralChat,
  fireworks: fireworksChat,
  anthropic: anthropicChat,
  gemini: geminiChat,
} satisfies Partial<Record<ProviderId, ChatAdapter>>;

export function chatAdapter(provider: ProviderId): ChatAdapter | undefined {
  return (CHAT_ADAPTERS as Partial<Record<ProviderId, ChatAdapter>>)[provider];
}
