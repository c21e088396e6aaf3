import { describe, expect, it, vi } from 'vitest';
import { openaiChat } from '../../providers/openai/chat';
import type { Usage } from '../../providers/chat/types';
import { CHAT_COMPLETIONS } from './formats/chat-completions';
import { chatEventStream, translatedSteps } from './stream';

const context = { model: 'openai/gpt-4o-mini', requestId: 'req_test', created: 1_700_000_000 };
const encoder = new TextEncoder();
const chunk = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
const usageFrame = `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 } })}\n\n`;

/** An upstream body the test feeds by hand, to see what leaves the gateway before the upstream is done. */
function manualUpstream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return { stream, send: (text: string) => controller.enqueue(encoder.encode(text)), end: () => controller.close(), fail: (err: Error) => controller.error(err) };
}

function pipeline(
  upstream: ReadableStream<Uint8Array>,
  charge = async (usage: Usage) => ({ costMicros: usage.inputTokens + usage.outputTokens, balanceMicros: 1_000 }),
  watch: { idleMs?: number; clientSignal?: AbortSignal } = {},
) {
  const settle = vi.fn(charge);
  const release = vi.fn(async () => {});
  const abortUpstream = vi.fn();
  const { body, settled } = chatEventStream({
    upstream,
    steps: translatedSteps(openaiChat.streamTranslator(context), CHAT_COMPLETIONS.encoder(context)),
    promptEstimate: 50,
    settle,
    release,
    abortUpstream,
    idleMs: watch.idleMs ?? 60_000,
    clientSignal: watch.clientSignal,
    xService: ({ costMicros }) => ({ request_id: 'req_test', cost_usd: String(costMicros) }),
  });
  return { reader: body.getReader(), settle, release, abortUpstream, settled };
}

async function readAll(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string[]> {
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  return text.split('\n\n').filter(Boolean);
}

describe('chatEventStream', () => {
  it('forwards each chunk as soon as it arrives, before the upstream finishes', async () => {
    const upstream = manualUpstream();
    const { reader } = pipeline(upstream.stream);
    upstream.send(chunk('Hel'));
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"content":"Hel"');
    upstream.send(chunk('lo'));
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('"content":"lo"');
    upstream.end();
    await reader.cancel();
  });

  it('ends a complete answer with the usage frame, billed on the upstream report, then [DONE]', async () => {
    const upstream = manualUpstream();
    const { reader, settle } = pipeline(upstream.stream);
    upstream.send(chunk('Hi', null) + chunk('', 'stop') + usageFrame + 'data: [DONE]\n\n');
    upstream.end();
    const frames = await readAll(reader);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const final = JSON.parse(frames.at(-2)!.slice(6));
    expect(final).toMatchObject({ choices: [], usage: { prompt_tokens: 11, completion_tokens: 2 }, x_service: { cost_usd: '13' } });
    expect(settle).toHaveBeenCalledTimes(1);
    expect(settle).toHaveBeenCalledWith({ inputTokens: 11, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it('ends a complete answer whose settlement is acknowledged nowhere cleanly, with its usage and no stated cost', async () => {
    const upstream = manualUpstream();
    const { reader, settle, settled } = pipeline(upstream.stream, async () => {
      throw new Error('journal unreachable');
    });
    upstream.send(chunk('Hi', null) + chunk('', 'stop') + usageFrame + 'data: [DONE]\n\n');
    upstream.end();
    const frames = await readAll(reader);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const final = JSON.parse(frames.at(-2)!.slice(6));
    expect(final).toMatchObject({ choices: [], usage: { prompt_tokens: 11, completion_tokens: 2 } });
    expect(final.x_service).toBeUndefined();
    expect(frames.some((f) => f.includes('"error"'))).toBe(false);
    expect(settle).toHaveBeenCalledTimes(1);
    expect(await settled).toBeNull();
  });

  it('ends with an error frame, never a clean end, when the upstream stops before finishing', async () => {
    const upstream = manualUpstream();
    const { reader, settle } = pipeline(upstream.stream);
    upstream.send(chunk('Partial answer'));
    upstream.end();
    const frames = await readAll(reader);
    expect(frames.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(frames.at(-2)!.slice(6))).toMatchObject({ error: { code: 'provider_error', type: 'api_error' } });
    // Nothing reported: the prompt estimate plus the delivered text (D6).
    expect(settle).toHaveBeenCalledWith({ inputTokens: 50, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('charges nothing and frees the hold when the provider fails before delivering anything', async () => {
    for (const failure of ['error event', 'end', 'broken connection']) {
      const upstream = manualUpstream();
      const { reader, settle, release, settled } = pipeline(upstream.stream);
      // The role chunk carries no content: the client has received nothing yet.
      upstream.send(chunk(''));
      if (failure === 'error event') upstream.send(`data: ${JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } })}\n\n`);
      if (failure === 'broken connection') upstream.fail(new TypeError('Network connection lost.'));
      else upstream.end();
      const frames = await readAll(reader);
      expect(frames.at(-1), failure).toBe('data: [DONE]');
      const error = JSON.parse(frames.at(-2)!.slice(6));
      expect(error, failure).toMatchObject({ error: { code: 'provider_error' } });
      expect(error.x_service, failure).toBeUndefined();
      expect(settle, failure).not.toHaveBeenCalled();
      expect(release, failure).toHaveBeenCalledTimes(1);
      expect(await settled, failure).toBeNull();
    }
  });

  it('turns an upstream error event into an error frame', async () => {
    const upstream = manualUpstream();
    const { reader } = pipeline(upstream.stream);
    upstream.send(chunk('a') + `data: ${JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } })}\n\n`);
    upstream.end();
    const frames = await readAll(reader);
    expect(frames.at(-2)).toContain('overloaded');
    expect(frames.at(-1)).toBe('data: [DONE]');
  });

  it('turns a broken connection into an error frame', async () => {
    const upstream = manualUpstream();
    const { reader, abortUpstream } = pipeline(upstream.stream);
    upstream.send(chunk('a'));
    await reader.read();
    upstream.fail(new TypeError('Network connection lost.'));
    const frames = await readAll(reader);
    expect(frames.at(-2)).toContain('Network connection lost.');
    expect(abortUpstream).toHaveBeenCalled();
  });

  it('cancels the upstream and settles once for what was delivered when the client leaves (D6)', async () => {
    const upstream = manualUpstream();
    const { reader, settle, abortUpstream, settled } = pipeline(upstream.stream);
    upstream.send(chunk('Some words here'));
    await reader.read();
    await reader.cancel();
    expect(abortUpstream).toHaveBeenCalled();
    expect(await settled).toMatchObject({ usage: { inputTokens: 50, outputTokens: 4 } });
    expect(settle).toHaveBeenCalledTimes(1);
  });

  it.each(['reasoning_content', 'reasoning'])('charges a client that leaves after the upstream streamed only %s: the reasoning reached it and is output (D6)', async (member) => {
    const upstream = manualUpstream();
    const { reader, settle, release, settled } = pipeline(upstream.stream);
    const thinking = 'Let me think about this step by step. '.repeat(20);
    upstream.send(`data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { [member]: thinking }, finish_reason: null }] })}\n\n`);
    await reader.read();
    await reader.cancel();
    expect(release).not.toHaveBeenCalled();
    expect(settle).toHaveBeenCalledTimes(1);
    expect(await settled).toMatchObject({ usage: { inputTokens: 50, outputTokens: Math.ceil(thinking.length / 4) } });
  });

  it('ends with an error frame and charges nothing when the upstream sends nothing for the idle timeout', async () => {
    const upstream = manualUpstream();
    const { reader, settle, release, abortUpstream, settled } = pipeline(upstream.stream, undefined, { idleMs: 50 });
    upstream.send(chunk(''));
    const frames = await readAll(reader);
    expect(frames.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(frames.at(-2)!.slice(6))).toMatchObject({ error: { code: 'provider_error', message: expect.stringContaining('sent nothing for 50 ms') } });
    expect(abortUpstream).toHaveBeenCalled();
    expect(settle).not.toHaveBeenCalled();
    expect(release).toHaveBeenCalledTimes(1);
    expect(await settled).toBeNull();
  });

  it('charges what was delivered when the upstream goes silent mid-answer (D6)', async () => {
    const upstream = manualUpstream();
    const { reader, settle } = pipeline(upstream.stream, undefined, { idleMs: 50 });
    upstream.send(chunk('Some words here'));
    const frames = await readAll(reader);
    expect(JSON.parse(frames.at(-2)!.slice(6))).toMatchObject({ error: { code: 'provider_error' }, x_service: { cost_usd: '54' } });
    expect(settle).toHaveBeenCalledWith({ inputTokens: 50, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('notices a client that leaves while the upstream is silent: the upstream is cancelled and nothing charged', async () => {
    const upstream = manualUpstream();
    const client = new AbortController();
    const { reader, settle, release, abortUpstream, settled } = pipeline(upstream.stream, undefined, { clientSignal: client.signal });
    upstream.send(chunk(''));
    await reader.read();
    // The gateway waits on the silent upstream; nothing is written that could fail.
    const pending = reader.read();
    client.abort();
    expect(await settled).toBeNull();
    expect(abortUpstream).toHaveBeenCalled();
    expect(release).toHaveBeenCalledTimes(1);
    expect(settle).not.toHaveBeenCalled();
    void pending.catch(() => {});
  });

  it('charges a client that leaves during a silence for what was streamed to it (D6)', async () => {
    const upstream = manualUpstream();
    const client = new AbortController();
    const { reader, settle, release, settled } = pipeline(upstream.stream, undefined, { clientSignal: client.signal });
    upstream.send(chunk('Some words here'));
    await reader.read();
    void reader.read().catch(() => {});
    client.abort();
    expect(await settled).toMatchObject({ usage: { inputTokens: 50, outputTokens: 4 } });
    expect(settle).toHaveBeenCalledTimes(1);
    expect(release).not.toHaveBeenCalled();
  });

  it('charges nothing when the client leaves before any of the answer, even after the provider reported usage', async () => {
    const upstream = manualUpstream();
    const { reader, settle, release, settled } = pipeline(upstream.stream);
    upstream.send(chunk('') + usageFrame);
    await reader.read();
    await reader.cancel();
    expect(await settled).toBeNull();
    expect(settle).not.toHaveBeenCalled();
    expect(release).toHaveBeenCalledTimes(1);
  });
});
