import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { mp3File } from '../fixtures/audio';
import { TRANSCRIPTION_KEYS } from './global-setup';
import { adminCredit, register } from './helpers';
import type { ReceivedTranscription } from '../upstreams/transcription';

/**
 * How a multipart transcription's bytes reach R2 and the upstream: a body of known length is
 * copied whole (one `put`) and its file read back by range; one of unknown length (streamed) is
 * spooled part by part. Either way the upstream gets exactly the file's bytes, the charge is the
 * length read from them, and no copy is left once the request is answered.
 */

const BASE = 'https://gateway.test';
const upstreamUrl = inject('transcriptionUpstreamUrl');
const app = createApp();
const gateway = { ...env, OPENAI_API_KEY: TRANSCRIPTION_KEYS.openai, OPENAI_BASE_URL: `${upstreamUrl}/v1` } as Env;

async function transcribe(apiKey: string, body: BodyInit, contentType: string): Promise<Response> {
  const ctx = createExecutionContext();
  const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': contentType };
  const res = await app.fetch(new Request(`${BASE}/v1/audio/transcriptions`, { method: 'POST', headers, body }), gateway, ctx);
  const copy = new Response(await res.arrayBuffer(), res);
  await waitOnExecutionContext(ctx);
  return copy;
}

async function funded(usd: string) {
  const agent = await register();
  expect((await adminCredit(agent.account_id, usd)).status).toBe(200);
  return agent;
}

async function balanceMicros(apiKey: string): Promise<number> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`${BASE}/agent/account`, { headers: { Authorization: `Bearer ${apiKey}` } }), gateway, ctx);
  await waitOnExecutionContext(ctx);
  return Math.round(Number(((await res.json()) as { balance_usd: string }).balance_usd) * 1e6);
}

async function sentFile(sha256: string): Promise<ReceivedTranscription | undefined> {
  const list = (await (await fetch(`${upstreamUrl}/__recorded`)).json()) as ReceivedTranscription[];
  return list.find((r) => r.file?.sha256 === sha256);
}

const hex = async (bytes: Uint8Array) => [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
const spooled = async (accountId: string) => (await env.MEDIA.list({ prefix: `uploads/${accountId}/transcriptions/` })).objects.length;

/** `frames` MP3 frames of 144 bytes after `skip` bytes, their payloads filled with bytes that differ from frame to frame (so a piece written twice or out of order shows). */
function varied(file: Uint8Array, skip = 0): Uint8Array {
  for (let at = skip, frame = 0; at + 144 <= file.length; at += 144, frame++) {
    for (let i = 4; i < 144; i++) file[at + i] = (frame * 7 + i) & 0xff;
  }
  return file;
}

/** A multipart body written by hand: a preamble, the file first, the fields after it, then an epilogue. */
function rawBody(boundary: string, file: Uint8Array, fields: Record<string, string>): Uint8Array {
  const encoder = new TextEncoder();
  const head = encoder.encode(`a preamble\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="clip.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`);
  const rest = Object.entries(fields).map(([name, value]) => `\r\n--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}`).join('');
  const tail = encoder.encode(`${rest}\r\n--${boundary}--\r\nan epilogue, which is no part\r\n`);
  const out = new Uint8Array(head.length + file.length + tail.length);
  out.set(head);
  out.set(file, head.length);
  out.set(tail, head.length + file.length);
  return out;
}

describe('a multipart transcription on its way through R2', () => {
  it('copies a body of known length whole and sends upstream exactly its file, read back by range: fields after the file, preamble and epilogue', async () => {
    const agent = await funded('1');
    // 14,000 frames (2 MB, 504 s): many reads of the reader's one buffer.
    const file = varied(mp3File(14_000, { id3: true }), 310);
    const boundary = 'raw-boundary';
    const res = await transcribe(agent.api_key, rawBody(boundary, file, { model: 'whisper-1', response_format: 'json' }), `multipart/form-data; boundary=${boundary}`);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ text: `transcript of ${file.length} bytes`, usage: { type: 'duration', seconds: 504 } });
    expect(await sentFile(await hex(file))).toMatchObject({ fields: { model: 'whisper-1' }, file: { bytes: file.length, name: 'audio.mp3' } });
    // 504 s at $0.006 a minute.
    expect(res.headers.get('X-Service-Cost')).toBe('0.050400');
    expect(1_000_000 - (await balanceMicros(agent.api_key))).toBe(50_400);
    expect(await spooled(agent.account_id)).toBe(0);
  });

  it('spools a streamed body of unknown length part by part: a 9 MiB MP3 (two R2 parts) arrives whole and is billed by its frames', async () => {
    const agent = await funded('2');
    // 65,536 frames of 144 bytes (9 MiB), 36 ms each: 2,359.296 s, billed 2,360.
    const file = varied(mp3File(65_536));
    const boundary = 'streamed-boundary';
    const bytes = rawBody(boundary, file, { model: 'whisper-1' });
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(at, at + 100_000));
        at += 100_000;
      },
    });
    const res = await transcribe(agent.api_key, body, `multipart/form-data; boundary=${boundary}`);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { usage: { seconds: number } }).usage.seconds).toBe(2360);
    expect(await sentFile(await hex(file))).toMatchObject({ file: { bytes: file.length } });
    expect(res.headers.get('X-Service-Cost')).toBe('0.236000');
    expect(2_000_000 - (await balanceMicros(agent.api_key))).toBe(236_000);
    expect(await spooled(agent.account_id)).toBe(0);
  });

  it('refuses a body whose Content-Length is past 25 MiB and its fields (256 KiB) with 400 naming file, before reading it', async () => {
    const agent = await funded('1');
    const boundary = 'big-boundary';
    const length = 25 * 1024 * 1024 + 256 * 1024 + 1;
    // The body sends its first bytes, then nothing: only a refusal that reads none of it can answer.
    const head = rawBody(boundary, mp3File(10), { model: 'whisper-1' }).subarray(0, 200);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
    });
    const ctx = createExecutionContext();
    const headers = { Authorization: `Bearer ${agent.api_key}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(length) };
    const res = await app.fetch(new Request(`${BASE}/v1/audio/transcriptions`, { method: 'POST', headers, body }), gateway, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { param: string } }).error.param).toBe('file');
    expect(await spooled(agent.account_id)).toBe(0);
    expect(await balanceMicros(agent.api_key)).toBe(1_000_000);
  });

  it('measures an upload (file_url) on its way upstream through one reused buffer and sends every byte unchanged', async () => {
    const agent = await funded('1');
    // 7,000 frames (1 MB, 252 s): its pieces are reads of one buffer, each written before the next read.
    const file = varied(mp3File(7_000));
    const ctx = createExecutionContext();
    const reserve = new Request(`${BASE}/v1/uploads`, { method: 'POST', headers: { Authorization: `Bearer ${agent.api_key}` }, body: JSON.stringify({ content_type: 'audio/mpeg', content_length: file.length }) });
    const reservation = (await (await app.fetch(reserve, gateway, ctx)).json()) as { public_url: string; key: string };
    await waitOnExecutionContext(ctx);
    await env.MEDIA.put(reservation.key, file, { httpMetadata: { contentType: 'audio/mpeg' } });
    const res = await transcribe(agent.api_key, JSON.stringify({ model: 'whisper-1', file_url: reservation.public_url }), 'application/json');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { usage: { seconds: number } }).usage.seconds).toBe(252);
    expect(await sentFile(await hex(file))).toMatchObject({ file: { bytes: file.length } });
    expect(1_000_000 - (await balanceMicros(agent.api_key))).toBe(25_200);
  });
});
