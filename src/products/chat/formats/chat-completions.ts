import type { ChatRequest } from '../../../providers/chat/types';
import { usageWire } from '../usage';
import type { ChatFormat, StreamEncoder } from './format';

const frame = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const DONE = 'data: [DONE]\n\n';

/**
 * OpenAI's Chat Completions, the internal shape itself: the body is the internal request, and
 * every provider is reached through its adapter (no native pass-through).
 */
export const CHAT_COMPLETIONS: ChatFormat<ChatRequest> = {
  path: '/v1/chat/completions',
  toChat: (body) => body,
  uncarriedBytes: () => 0,
  fromCompletion: (completion, usage) => ({ ...completion, usage: usageWire(usage) }),
  encoder: (context): StreamEncoder => {
    let chunkId: string | undefined;
    return {
      chunk: (chunk) => {
        chunkId ??= chunk.id;
        return frame(chunk);
      },
      // The usage frame (D15: with `x_service` when the charge was acknowledged), then `[DONE]`.
      end: (usage, xService) =>
        (usage
          ? frame({
              id: chunkId ?? `chatcmpl-${context.requestId}`,
              object: 'chat.completion.chunk',
              created: context.created,
              model: context.model,
              choices: [],
              usage: usageWire(usage),
              ...(xService && { x_service: xService }),
            })
          : '') + DONE,
      error: (message, xService) => frame({ error: { code: 'provider_error', type: 'api_error', message }, ...(xService && { x_service: xService }) }) + DONE,
    };
  },
};
