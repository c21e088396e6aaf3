/** The Anthropic Messages API as a chat-completions provider. */
import type { ChatAdapter } from '../chat/types';
import { buildAnthropicRequest } from './request';
import { anthropicErrorMessage, parseAnthropicResponse } from './response';
import { anthropicStreamTranslator } from './stream';

export const anthropicChat: ChatAdapter = {
  buildRequest: buildAnthropicRequest,
  parseResponse: parseAnthropicResponse,
  streamTranslator: anthropicStreamTranslator,
  errorMessage: anthropicErrorMessage,
};
