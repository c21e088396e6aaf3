import type { ChatCompletionChunk, SseEvent, StreamTranslator, Usage } from '../../providers/chat/types';
import { SseParser } from '../../providers/chat/sse';
import { idleReader } from '../../providers/idle';
import type { NativeStep, NativeStreamReader, SseText, StreamEncoder, XService } from './formats/format';
import { billableUsage } from './usage';

export interface Settled {
  usage: Usage;
  costMicros: number;
  balanceMicros: number;
}

/**
 * One answer's stream as the client's format writes it: for each upstream event, what to send
 * and what it delivered; then its end or its error. A translated stream is a provider adapter's
 * translator and a format's encoder (`translatedSteps`); a native one passes events through
 * (`NativeStreamReader`).
 */
export interface StreamSteps {
  push(event: SseEvent): NativeStep;
  /** What is still owed when the upstream stream ended (a translator's last chunks). */
  finish(): NativeStep;
  /** The usage reported so far; null when none was. */
  usage(): Usage | null;
  /** The end of a complete answer: its billed usage (none when its settlement never began) and `x_service`. */
  end(usage: Usage | undefined, xService: XService | undefined): SseText;
  error(message: string, xService: XService | undefined): SseText;
}

export interface ChatStreamOptions {
  upstream: ReadableStream<Uint8Array>;
  steps: StreamSteps;
  promptEstimate: number;
  /** Charges the account for `usage`; called at most once, whatever ends the stream. */
  settle: (usage: Usage) => Promise<{ costMicros: number; balanceMicros: number }>;
  /** Frees the hold without a charge, instead of `settle`: the stream failed, or its client left, before any of the answer was delivered. */
  release: () => Promise<unknown>;
  /** Cancels the upstream request (the client went away, or the upstream failed). */
  abortUpstream: () => void;
  /** The longest wait for the upstream's next byte; past it the stream fails as the provider's. */
  idleMs: number;
  /** The client's request signal: it aborts when the client disconnects, even while the upstream is silent. */
  clientSignal?: AbortSignal;
  /** Builds the final event's `x_service` member (D15). */
  xService: (settled: Settled) => XService;
}

/** Delta members that carry a reasoning model's thinking as text. */
const REASONING_MEMBERS = ['reasoning_content', 'reasoning'] as const;

const encoder = new TextEncoder();
const NOTHING: NativeStep = { out: '', delivered: false, finished: false, text: '' };

/** What a batch of internal chunks delivered: its text (output, reasoning included), and whether any of the answer or its end was in it. */
function noteChunks(chunks: ChatCompletionChunk[], write: (chunk: ChatCompletionChunk) => SseText): NativeStep {
  const step = { out: '', delivered: false, finished: false, text: '' };
  for (const chunk of chunks) {
    step.out += write(chunk);
    for (const choice of chunk.choices) {
      const delta: Record<string, unknown> = choice.delta;
      if (choice.delta.content) step.text += choice.delta.content;
      for (const call of choice.delta.tool_calls ?? []) step.text += (call.function?.name ?? '') + (call.function?.arguments ?? '');
      // Reasoning the upstream streams beside the answer (DeepSeek's `reasoning_content`, Groq's `reasoning`) is output too.
      for (const name of REASONING_MEMBERS) if (typeof delta[name] === 'string') step.text += delta[name];
      // Any member but the role reached the client: something of the answer was delivered (D6).
      if (Object.entries(delta).some(([name, value]) => name !== 'role' && value !== null && value !== undefined && value !== '')) step.delivered = true;
      if (choice.finish_reason) step.finished = true;
    }
  }
  return step;
}

/** A provider adapter's translated chunks, written by a format's encoder. */
export function translatedSteps(translator: StreamTranslator, encoder: StreamEncoder): StreamSteps {
  const write = (chunk: ChatCompletionChunk) => encoder.chunk(chunk);
  return {
    push: (event) => noteChunks(translator.push(event), write),
    finish: () => noteChunks(translator.finish(), write),
    usage: () => translator.usage(),
    end: (usage, xService) => encoder.end(usage, xService),
    error: (message, xService) => encoder.error(message, xService),
  };
}

/** A native stream's events as they pass through (D30). */
export function nativeSteps(reader: NativeStreamReader): StreamSteps {
  return {
    push: (event) => reader.push(event),
    finish: () => NOTHING,
    usage: () => reader.usage(),
    end: (usage, xService) => reader.end(usage, xService),
    error: (message, xService) => reader.error(message, xService),
  };
}

/**
 * Writes an upstream event stream in the client's format as each read arrives (no buffering),
 * then the end with its usage and cost (`x_service`). An upstream error, an upstream
 * that stops before finishing or sends nothing for `idleMs`, ends with an error frame, never a
 * clean-looking end, and charges what was delivered. A client that disconnects (the body
 * cancelled, or `clientSignal`, which also fires while the upstream is silent) cancels the
 * upstream and pays for what was streamed to it (D6). Nothing of the answer delivered, nothing
 * is charged: the hold is released.
 */
export function chatEventStream(options: ChatStreamOptions): { body: ReadableStream<Uint8Array>; settled: Promise<Settled | null> } {
  const { steps } = options;
  const reader = idleReader(options.upstream, options.idleMs);
  const decoder = new TextDecoder();
  const parser = new SseParser();
  let streamedText = '';
  /** Whether any of the answer reached the client (text, a tool call or a refusal). */
  let delivered = false;
  let finished = false;
  let left = false;

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
      const reported = steps.usage();
      if (ending !== 'complete' && !delivered) {
        // The client got no answer (an error frame, or nothing before it left): nothing to charge
        // for, whatever the provider reported; what it bills is the operator's loss.
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

  const note = (step: NativeStep) => {
    streamedText += step.text;
    if (step.delivered) delivered = true;
    if (step.finished) finished = true;
    return step.out;
  };
  const write = (controller: ReadableStreamDefaultController<Uint8Array>, text: SseText) => {
    if (text) controller.enqueue(encoder.encode(text));
  };

  let output: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      output = controller;
    },
    async pull(controller) {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          // The client left while this read waited: `leave` has settled it.
          if (left) return;
          let out = '';
          for (const event of done ? parser.end() : parser.push(decoder.decode(value, { stream: true }))) out += note(steps.push(event));
          if (done) out += note(steps.finish());
          write(controller, out);
          if (done) {
            if (!finished) throw new Error('The provider ended the stream before the answer was complete.');
            // A settlement acknowledged nowhere (docs/operators/money.md, "What a client was told is what the ledger says"): the answer is whole, so it ends
            // as one, like a non-streamed answer, without a stated cost; not as a provider failure.
            const result = await settleOnce('complete').catch((err: unknown) => {
              console.error('settlement acknowledged nowhere; the stream ends without a cost', err);
              return null;
            });
            write(controller, steps.end(billed, result ? options.xService(result) : undefined));
            controller.close();
            return;
          }
          if (out) return;
        }
      } catch (err) {
        options.abortUpstream();
        // The client left while this read waited: `leave` settles; nobody reads an error frame.
        if (left) return;
        const result = await settleOnce('failed').catch(() => null);
        const message = err instanceof Error ? err.message : String(err);
        write(controller, steps.error(`The provider's stream failed: ${message}`, result ? options.xService(result) : undefined));
        controller.close();
      }
    },
    cancel: () => leave(),
  });

  const leave = async () => {
    if (left) return;
    left = true;
    options.clientSignal?.removeEventListener('abort', onClientAbort);
    options.abortUpstream();
    await reader.cancel();
    // Told by the signal, not by the body's cancel: the body ends too (nobody reads it).
    try {
      output?.close();
    } catch {
      // already cancelled or closed
    }
    await settleOnce('left').catch(() => null);
  };
  const onClientAbort = () => void leave();
  if (options.clientSignal?.aborted) onClientAbort();
  else options.clientSignal?.addEventListener('abort', onClientAbort);
  // Once settled, a later abort of the client's signal means nothing.
  void settled.then(() => options.clientSignal?.removeEventListener('abort', onClientAbort));
  return { body, settled };
}
