import { describe, expect, it } from 'vitest';
import { SseParser } from './sse';

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
});
