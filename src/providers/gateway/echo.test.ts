import { describe, expect, it } from 'vitest';
import { answerEcho, ECHO_PREFIX, echoText } from './echo';

const built = (body: Record<string, unknown>) => ({ url: 'https://gateway.invalid/v1/chat/completions', headers: {}, body: JSON.stringify({ model: 'echo', ...body }) });

describe('the demo model’s answer', () => {
  it.each([
    ['a string', [{ role: 'user', content: 'hello' }], `${ECHO_PREFIX}hello`],
    ['text parts, joined', [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'image_url', image_url: { url: 'x' } }, { type: 'text', text: 'b' }] }], `${ECHO_PREFIX}ab`],
    ['the last user turn, not a later system or assistant one', [{ role: 'user', content: 'first' }, { role: 'user', content: 'second' }, { role: 'assistant', content: 'no' }], `${ECHO_PREFIX}second`],
    ['nothing after the prefix when no user spoke', [{ role: 'system', content: 'rules' }], ECHO_PREFIX],
  ])('echoes %s', (_, messages, text) => {
    expect(echoText({ messages })).toEqual({ text, finish: 'stop' });
  });

  it('is cut at max_tokens, 4 characters a token, and says length', () => {
    expect(echoText({ max_tokens: 2, messages: [{ role: 'user', content: 'hi' }] })).toEqual({ text: ECHO_PREFIX.slice(0, 8), finish: 'length' });
  });

  it('answers a whole completion with usage estimated at 4 characters a token', async () => {
    const body = (await answerEcho(built({ messages: [{ role: 'user', content: 'abcdefgh' }] })).json()) as { choices: { message: { content: string } }[]; usage: Record<string, number> };
    expect(body.choices[0]!.message.content).toBe(`${ECHO_PREFIX}abcdefgh`);
    expect(body.usage).toEqual({ prompt_tokens: 2, completion_tokens: Math.ceil((ECHO_PREFIX.length + 8) / 4), total_tokens: 2 + Math.ceil((ECHO_PREFIX.length + 8) / 4) });
  });

  it('streams the answer in pieces, then the finish, a usage frame and [DONE]', async () => {
    const res = answerEcho(built({ stream: true, messages: [{ role: 'user', content: 'one two' }] }));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const lines = (await res.text()).split('\n\n').filter(Boolean);
    expect(lines.at(-1)).toBe('data: [DONE]');
    const events = lines.slice(0, -1).map((line) => JSON.parse(line.slice('data: '.length)) as { choices: { delta: { content?: string }; finish_reason: string | null }[]; usage?: unknown });
    expect(events.map((event) => event.choices[0]?.delta.content ?? '').join('')).toBe(`${ECHO_PREFIX}one two`);
    expect(events.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    expect(events.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 2 } });
  });
});
