/** Anthropic's Messages API as a chat format (D30): native on Anthropic's models, translated on every other. */
import type { ChatFormat } from '../format';
import { messagesEncoder } from './encoder';
import { messageFromCompletion } from './from-completion';
import { MESSAGES_NATIVE } from './native';
import type { MessagesBody } from './schema';
import { messagesToChat } from './to-chat';
import { uncarriedBytes } from './uncarried';

export const MESSAGES: ChatFormat<MessagesBody> = {
  path: '/v1/messages',
  toChat: messagesToChat,
  uncarriedBytes,
  fromCompletion: messageFromCompletion,
  encoder: messagesEncoder,
  native: MESSAGES_NATIVE,
  readsHighCapAsCap: true,
};
