import { describe, expect, inject, it } from 'vitest';
import { mediaCall, type UpstreamCall } from './http';
import { isTransient, UnconfirmedRender, UpstreamTrouble } from './upstream-errors';

/** `mediaCall` against OpenAI's Images API played on 127.0.0.1 (`test/upstreams/openai-images.ts`). */
const imagesUrl = inject('imagesUpstreamUrl');

function render(prompt: string, base = `${imagesUrl}/v1`): UpstreamCall {
  return { url: `${base}/images/generations`, headers: { Authorization: 'Bearer sk-images-workers', 'Content-Type': 'application/json' }, body: JSON.stringify({ model: 'gpt-image-1', prompt, size: '1024x1024' }) };
}

const failureOf = (call: Promise<unknown>) => call.then(() => undefined, (err: unknown) => err);

describe('mediaCall: a submission sent once, and reads asked again', () => {
  it.each([
    ['times out after it was sent', '[slow]'],
    ['has its connection dropped', '[reset]'],
  ])('fails a once call that %s as an unconfirmed render, final', async (_, tag) => {
    const err = await failureOf(mediaCall('OpenAI', render(`x ${tag} ${crypto.randomUUID()}`), { timeoutMs: 300, once: true }));
    expect(err).toBeInstanceOf(UnconfirmedRender);
    expect(isTransient(err)).toBe(false);
  });

  it('treats the same trouble on a call that may be asked again (a status read) as transport trouble', async () => {
    const err = await failureOf(mediaCall('OpenAI', render(`x [slow] ${crypto.randomUUID()}`), { timeoutMs: 300 }));
    expect(err).toBeInstanceOf(UpstreamTrouble);
  });

  it('retries a once call whose host refuses connections: it never had the request', async () => {
    const err = await failureOf(mediaCall('OpenAI', render('x', 'http://127.0.0.1:9/v1'), { once: true }));
    expect(err).toBeInstanceOf(UpstreamTrouble);
    expect(isTransient(err)).toBe(true);
  });
});
