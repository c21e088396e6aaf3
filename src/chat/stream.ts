import type { ChatCompletionChunk, ResponseContext, StreamTranslator, Usage } from '../providers/chat/types';
import { SseParser } from '../providers/chat/sse';
import { billableUsage, usageWire } from './usage';

export interface Settled {
  usage: Usage;
  costMicros: number;
  balanceMicros: number;
}

export interface ChatStreamOptions {
  upstream: ReadableStream<Uint8Array>;
  translator: StreamTranslator;
  context: ResponseContext;
  promptEstimate: number;
  /** Charges the account for `usage`; called at most once, whatever ends the stream. */
  settle: (usage: Usage) => Promise<{ costMicros: number; balanceMicros: number }>;
  /** Frees the hold without a charge, instead of `settle`: the provider failed before it delivered anything. */
  release: () => Promise<unknown>;
  /** Cancels the upstream request (the client went away). */
  abortUpstream: () => void;
  /** Builds the final frame's `x_service` member (D15). */
  xService: (settled: Settled) => Record<string, string>;
}

const encoder = new TextEncoder();
const frame = (value: unknown) => encoder.encode(`data: ${JSON.stringify(value)}\n\n`);
const DONE = encoder.encode('data: [DONE]\n\n');

/**
 * Translates an upstream event stream into chat chunks as each read arrives (no buffering),
 * then sends the usage frame with the cost and `data: [DONE]`. An upstream error, or an upstream
 * that stops before finishing, ends with an error frame, never a clean-looking end, and charges
 * what was delivered; nothing when nothing was. A client that disconnects cancels the upstream
 * and pays for what was generated (D6).
 */
export function chatEventStream(options: ChatStreamOptions): { body: ReadableStream<Uint8Array>; settled: Promise<Settled | null> } {
  const { translator, context } = options;
  const reader = options.upstream.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  let streamedText = '';
  let finished = false;
  let chunkId: string | undefined;

  let settleStarted = false;
  /** What the stream bills, known before its settlement is acknowledged (or not). */
  let billed: Usage | undefined;
  let resolveSettled: (value: Settled | null) => void = () => {};
  const settled = new Promise<Settled | null>((resolve) => (resolveSettled = resolve));
  /** How the stream ended: its answer complete, the provider failed, or the client left (D6). */
  const settleOnce = async (ending: 'complete' | 'failed' | 'left'): Promise<Settled | null> => {
    if (settleStarted) return null;
    settleStarted = true;
    try {
      const reported = translator.usage();
      if (ending === 'failed' && reported === null && streamedText === '') {
        // The client got an error frame and no answer: there is nothing to charge for.
        await options.release();
        resolveSettled(null);
        return null;
      }
      const usage = (billed = billableUsage(reported, options.promptEstimate, streamedText, ending === 'complete'));
      const result = { usage, ...(await options.settle(usage)) };
      resolveSettled(result);
      return result;
    } catch (err) {
      resolveSettled(null);
      throw err;
    }
  };

  const note = (chunks: ChatCompletionChunk[]) => {
    for (const chunk of chunks) {
      chunkId ??= chunk.id;
      for (const choice of chunk.choices) {
        if (choice.delta.content) streamedText += choice.delta.content;
        for (const call of choice.delta.tool_calls ?? []) streamedText += (call.function?.name ?? '') + (call.function?.arguments ?? '');
        if (choice.finish_reason) finished = true;
      }
    }
  };

  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          const chunks = (done ? parser.end() : parser.push(decoder.decode(value, { stream: true }))).flatMap((event) => translator.push(event));
          if (done) chunks.push(...translator.finish());
          note(chunks);
          for (const chunk of chunks) controller.enqueue(frame(chunk));
          if (done) {
            if (!finished) throw new Error('The provider ended the stream before the answer was complete.');
            // A settlement acknowledged nowhere (README, "Money"): the answer is whole, so it ends
            // as one, like a non-streamed answer, without a stated cost; not as a provider failure.
            const result = await settleOnce('complete').catch((err: unknown) => {
              console.error('settlement acknowledged nowhere; the stream ends without a cost', err);
              return null;
            });
            if (billed) {
              controller.enqueue(
                frame({
                  id: chunkId ?? `chatcmpl-${context.requestId}`,
                  object: 'chat.completion.chunk',
                  created: context.created,
                  model: context.model,
                  choices: [],
                  usage: usageWire(billed),
                  ...(result && { x_service: options.xService(result) }),
                }),
              );
            }
            controller.enqueue(DONE);
            controller.close();
            return;
          }
          if (chunks.length > 0) return;
        }
      } catch (err) {
        options.abortUpstream();
        const result = await settleOnce('failed').catch(() => null);
        const message = err instanceof Error ? err.message : String(err);
        controller.enqueue(
          frame({
            error: { code: 'provider_error', type: 'api_error', message: `The provider's stream failed: ${message}` },
            ...(result ? { x_service: options.xService(result) } : {}),
          }),
        );
        controller.enqueue(DONE);
        controller.close();
      }
    },
    async cancel() {
      options.abortUpstream();
      await reader.cancel().catch(() => {});
      await settleOnce('left').catch(() => null);
    },
  });
  return { body, settled };
}
