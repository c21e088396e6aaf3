import { describe, expect, it } from 'vitest';
import { MAX_SSE_LINE, SseLineTooLong, SseParser } from './sse';

/** Wall-clock ms: workerd's clock moves only across I/O, so a timer tick comes first. */
async function now(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1));
  return Date.now();
}

/** Feeds `total` characters of one `data:` line in pieces of `piece` characters; the events, or what it threw. */
function feedLongLine(total: number, piece: number, ending: string): { events: unknown[]; error: unknown } {
  const parser = new SseParser();
  const chunk = 'x'.repeat(piece);
  const events: unknown[] = [];
  try {
    events.push(...parser.push('data: '));
    for (let sent = 0; sent < total; sent += piece) events.push(...parser.push(chunk.slice(0, Math.min(piece, total - sent))));
    events.push(...parser.push(ending), ...parser.end());
    return { events, error: undefined };
  } catch (error) {
    return { events, error };
  }
}

describe('SseParser', () => {
  it('reads OpenAI-style data frames and the terminator', () => {
    expect(new SseParser().push('data: {"a":1}\n\ndata: [DONE]\n\n')).toEqual([{ data: '{"a":1}' }, { data: '[DONE]' }]);
  });

  it('reads named events (Anthropic)', () => {
    const text = 'event: message_start\ndata: {"type":"message_start"}\n\nevent: ping\ndata: {"type": "ping"}\n\n';
    expect(new SseParser().push(text)).toEqual([
      { event: 'message_start', data: '{"type":"message_start"}' },
      { event: 'ping', data: '{"type": "ping"}' },
    ]);
  });

  it('reads \\r\\n framing (Gemini)', () => {
    expect(new SseParser().push('data: {"x":1}\r\n\r\ndata: {"x":2}\r\n\r\n')).toEqual([{ data: '{"x":1}' }, { data: '{"x":2}' }]);
  });

  it('joins events split across reads at any byte, including between \\r and \\n', () => {
    const text = 'event: a\r\ndata: one\r\n\r\ndata: two\r\ndata: three\r\n\r\n: comment\r\n\r\n';
    for (let cut = 1; cut < text.length; cut++) {
      const parser = new SseParser();
      const events = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut)), ...parser.end()];
      expect(events).toEqual([{ event: 'a', data: 'one' }, { data: 'two\nthree' }]);
    }
  });

  it('ignores comments and keep-alives', () => {
    expect(new SseParser().push(': OPENROUTER PROCESSING\n\n:\n\n')).toEqual([]);
  });

  it('returns a last event that lacks its blank line at the end of the stream', () => {
    const parser = new SseParser();
    expect(parser.push('data: tail')).toEqual([]);
    expect(parser.end()).toEqual([{ data: 'tail' }]);
  });

  it('refuses a 16 MiB line sent in 64 KiB pieces at the cap, without reading it to its end', async () => {
    const started = await now();
    const { events, error } = feedLongLine(16 * 1024 * 1024, 64 * 1024, '\n\n');
    expect(error).toBeInstanceOf(SseLineTooLong);
    expect(events).toEqual([]);
    // Generous: the whole 16 MiB takes a few ms when each piece is scanned once (37 s when it was not).
    expect((await now()) - started).toBeLessThan(2_000);
  });

  it('parses a line just under the cap sent in 1 KiB pieces in linear time', async () => {
    const started = await now();
    const length = MAX_SSE_LINE - 'data: '.length;
    const { events, error } = feedLongLine(length, 1024, '\r\n\r\n');
    expect(error).toBeUndefined();
    expect(events).toHaveLength(1);
    expect((events[0] as { data: string }).data.length).toBe(length);
    // 4,096 pieces: rescanning the open line on each (quadratic) took 10 s; one scan each takes ms.
    expect((await now()) - started).toBeLessThan(2_000);
  });

  it('refuses an event whose data lines together pass the cap', () => {
    const parser = new SseParser();
    const line = `data: ${'y'.repeat(1024 * 1024)}\n`;
    expect(() => {
      for (let i = 0; i < 5; i++) parser.push(line);
    }).toThrow(SseLineTooLong);
  });
});
