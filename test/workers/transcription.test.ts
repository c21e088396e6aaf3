import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { m4aFile, mp3File, wavFile } from '../fixtures/audio';
import { TRANSCRIPTION_KEYS } from './global-setup';
import { formatUsd } from '../../src/money';
import { adminCredit, expectError, register } from './helpers';
import type { ReceivedTranscription } from '../upstreams/transcription';
import { createOrganization, eventually, invite, join, organization } from './org-helpers';

/**
 * `POST /v1/audio/transcriptions` through the public API inside workerd, OpenAI's, Groq's and
 * ElevenLabs' speech-to-text played on 127.0.0.1: the gateway measures each file's length from
 * its own headers, holds an upper bound before the upstream call, and charges the measured
 * seconds at the catalog price, exactly.
 */

const BASE = 'https://gateway.test';
const upstreamUrl = inject('transcriptionUpstreamUrl');
const app = createApp();
const R2_VARS = { R2_ACCOUNT_ID: '0123456789abcdef0123456789abcdef', R2_ACCESS_KEY_ID: 'AKIDWORKERS', R2_SECRET_ACCESS_KEY: 'secret-workers', R2_S3_ENDPOINT: 'http://127.0.0.1:9' };
const gateway = {
  ...env,
  ...R2_VARS,
  OPENAI_API_KEY: TRANSCRIPTION_KEYS.openai,
  OPENAI_BASE_URL: `${upstreamUrl}/v1`,
  GROQ_API_KEY: TRANSCRIPTION_KEYS.groq,
  GROQ_BASE_URL: `${upstreamUrl}/openai/v1`,
  ELEVENLABS_API_KEY: TRANSCRIPTION_KEYS.elevenlabs,
  ELEVENLABS_BASE_URL: upstreamUrl,
} as Env;

async function send(path: string, apiKey: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`${BASE}${path}`, { ...init, headers: { Authorization: `Bearer ${apiKey}`, ...init.headers } }), gateway, ctx);
  const copy = new Response(await res.arrayBuffer(), res);
  await waitOnExecutionContext(ctx);
  return copy;
}

/** A multipart body as the `openai` SDK writes it: the file first, then the other fields. */
function form(file: Uint8Array | null, fields: Record<string, string>, filename = 'clip.mp3'): FormData {
  const body = new FormData();
  if (file) body.append('file', new File([file], filename, { type: 'application/octet-stream' }));
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

const transcribe = (apiKey: string, file: Uint8Array | null, fields: Record<string, string>) =>
  send('/v1/audio/transcriptions', apiKey, { method: 'POST', body: form(file, fields) });
const transcribeUrl = (apiKey: string, body: Record<string, unknown>) =>
  send('/v1/audio/transcriptions', apiKey, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });

async function funded(usd = '1') {
  const agent = await register();
  expect((await adminCredit(agent.account_id, usd)).status).toBe(200);
  return agent;
}

async function balance(apiKey: string): Promise<string> {
  return ((await (await send('/agent/account', apiKey)).json()) as { balance_usd: string }).balance_usd;
}

const micros = (usd: string) => Math.round(Number(usd) * 1e6);

async function received(): Promise<ReceivedTranscription[]> {
  return (await fetch(`${upstreamUrl}/__recorded`)).json();
}

/** An upload of `bytes` stored as R2 holds it after the client's presigned PUT; its public_url. */
async function upload(apiKey: string, bytes: Uint8Array, type = 'audio/mpeg'): Promise<string> {
  const res = await send('/v1/uploads', apiKey, { method: 'POST', body: JSON.stringify({ content_type: type, content_length: bytes.length }) });
  expect(res.status, await res.clone().text()).toBe(200);
  const reservation = (await res.json()) as { public_url: string; key: string };
  await env.MEDIA.put(reservation.key, bytes, { httpMetadata: { contentType: type } });
  return reservation.public_url;
}

async function spooledObjects(accountId: string): Promise<number> {
  return (await env.MEDIA.list({ prefix: `uploads/${accountId}/transcriptions/` })).objects.length;
}

/** A WAV whose `fmt ` states 100 times its real byte rate (so its header alone reads 1/100 of its length). */
function lyingByteRate(file: Uint8Array): Uint8Array {
  const view = new DataView(file.buffer, file.byteOffset);
  view.setUint32(28, view.getUint32(28, true) * 100, true);
  return file;
}

describe('POST /v1/audio/transcriptions, a file in the request', () => {
  it('transcribes an MP3 on whisper-1 and charges its measured 9 s at $0.006 a minute: the cost stated is the balance drop', async () => {
    const agent = await funded();
    const before = received().then((list) => list.length);
    const file = mp3File(250, { id3: true });
    const res = await transcribe(agent.api_key, file, { model: 'whisper-1' });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as { text: string; usage: { type: string; seconds: number } };
    expect(body).toEqual({ text: `transcript of ${file.length} bytes`, usage: { type: 'duration', seconds: 9 } });
    expect(res.headers.get('X-Service-Cost')).toBe('0.000900');
    expect(micros('1') - micros(await balance(agent.api_key))).toBe(900);
    const sent = (await received()).slice(await before).find((r) => r.file?.bytes === file.length)!;
    expect(sent).toMatchObject({ path: '/v1/audio/transcriptions', fields: { model: 'whisper-1', response_format: 'json' }, file: { name: 'audio.mp3', type: 'audio/mpeg' } });
    expect(Number(sent.contentLength)).toBeGreaterThan(file.length);
    // The request's own copy of the audio is gone once it is answered.
    expect(await spooledObjects(agent.account_id)).toBe(0);
  });

  it.each([
    ['a CBR MP3', mp3File(250), 9, 900],
    ['a VBR MP3 with a Xing header', mp3File(500, { xing: true, vbr: true }), 18, 1800],
    ['a WAV of 7.5 s, billed 8', wavFile(7.5), 8, 800],
    ['an M4A of 12.25 s, billed 13', m4aFile(12.25), 13, 1300],
    // Headers that understate the length are never believed: a decoder plays every frame, and the upstream bills it.
    ['an MP3 whose Xing header states 10 of its 250 frames', new Uint8Array([...mp3File(10, { xing: true }), ...mp3File(240)]), 9, 900],
    ['an M4A whose headers state 1 ms of its 12.8 s of AAC frames', m4aFile(12.8, { statedSeconds: 0.001 }), 13, 1300],
    ['a WAV whose header states 100 times its byte rate', lyingByteRate(wavFile(7.5)), 8, 800],
  ])('bills %s by the length a decoder plays, at whisper-1\'s $0.006 a minute', async (_name, file, seconds, cost) => {
    const agent = await funded();
    const res = await transcribe(agent.api_key, file, { model: 'openai/whisper-1', language: 'en' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { usage: { seconds: number } }).usage.seconds).toBe(seconds);
    expect(micros(res.headers.get('X-Service-Cost')!)).toBe(cost);
    expect(micros('1') - micros(await balance(agent.api_key))).toBe(cost);
  });

  it("bills the GPT-4o transcribers by the tokens OpenAI reports (audio, the prompt's text, the transcript), as OpenAI bills them", async () => {
    const agent = await funded();
    const prompt = 'Names: Anthropic, Claude.'.padEnd(40, ' ');
    const res = await transcribe(agent.api_key, mp3File(250), { model: 'openai/gpt-4o-mini-transcribe', prompt });
    expect(res.status, await res.clone().text()).toBe(200);
    // 10 audio tokens at $3, 10 text tokens at $1.25 and 5 output tokens at $5 per million.
    const usage = ((await res.json()) as { usage: Record<string, unknown> }).usage;
    expect(usage).toMatchObject({ type: 'tokens', input_token_details: { text_tokens: 10, audio_tokens: 10 }, output_tokens: 5 });
    expect(micros(res.headers.get('X-Service-Cost')!)).toBe(10 * 3 + Math.round(10 * 1.25 + 5 * 5));
    expect(micros('1') - micros(await balance(agent.api_key))).toBe(68);
    // Plain text is asked of OpenAI as JSON, so its tokens are read too.
    const text = await transcribe(agent.api_key, mp3File(250), { model: 'openai/gpt-4o-transcribe', response_format: 'text' });
    expect(text.headers.get('Content-Type')).toMatch(/^text\/plain/);
    expect(micros(text.headers.get('X-Service-Cost')!)).toBe(10 * 6 + 5 * 10);
  });

  it('holds the longest transcript a GPT-4o transcriber writes beside its audio: a 9 s file that comes back with 2,000 tokens is charged for them', async () => {
    const agent = await funded();
    const res = await transcribe(agent.api_key, mp3File(250), { model: 'openai/gpt-4o-transcribe', prompt: '[transcript-tokens=2000]' });
    expect(res.status, await res.clone().text()).toBe(200);
    // 10 audio tokens at $6, 6 prompt tokens at $2.50 and 2,000 output tokens at $10 per million: far
    // past the 9 s at $0.006 a minute (900), which alone would have been the hold and so the most charged.
    expect(micros(res.headers.get('X-Service-Cost')!)).toBe(Math.round(10 * 6 + 6 * 2.5 + 2000 * 10));
    expect(micros('1') - micros(await balance(agent.api_key))).toBe(20075);
  });

  it('bills Groq Whisper at least 10 s: a 3 s WAV costs 10 s at $0.111 an hour', async () => {
    const agent = await funded();
    const res = await transcribe(agent.api_key, wavFile(3), { model: 'openai/whisper-large-v3', response_format: 'verbose_json' });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as { task: string; segments: unknown[]; usage: { seconds: number } };
    expect(body.task).toBe('transcribe');
    expect(body.usage.seconds).toBe(10);
    expect(res.headers.get('X-Service-Cost')).toBe('0.000308');
    expect(micros('1') - micros(await balance(agent.api_key))).toBe(308);
    expect((await received()).at(-1)).toMatchObject({ path: '/openai/v1/audio/transcriptions', fields: { model: 'whisper-large-v3', response_format: 'verbose_json' }, file: { name: 'audio.wav' } });
  });

  it('answers text on ElevenLabs Scribe, and OpenAI\'s verbose shape translated from its words', async () => {
    const agent = await funded();
    const text = await transcribe(agent.api_key, mp3File(250), { model: 'elevenlabs/scribe-v1', response_format: 'text', language: 'en' });
    expect(text.status, await text.clone().text()).toBe(200);
    expect(text.headers.get('Content-Type')).toMatch(/^text\/plain/);
    expect(await text.text()).toBe(`transcript of ${mp3File(250).length} bytes`);
    // 9 s at $0.22 an hour.
    expect(text.headers.get('X-Service-Cost')).toBe('0.000550');
    expect((await received()).at(-1)).toMatchObject({ path: '/v1/speech-to-text', fields: { model_id: 'scribe_v1', language_code: 'en' } });
    const verbose = await transcribe(agent.api_key, wavFile(1), { model: 'scribe-v1', response_format: 'verbose_json' });
    const body = (await verbose.json()) as { task: string; language: string; words: { word: string }[]; segments: unknown[] };
    expect(body).toMatchObject({ task: 'transcribe', language: 'eng' });
    expect(body.words.map((w) => w.word)).toEqual(['transcript', 'of', `${wavFile(1).length}`, 'bytes']);
    expect(micros('1') - micros(await balance(agent.api_key))).toBe(550 + 61);
  });

  it.each([
    ['a file that is not audio', new TextEncoder().encode('<html><body>hello</body></html>')],
    ['an empty file', new Uint8Array(0)],
    ['an Ogg file, which is not measured', new TextEncoder().encode('OggS\0\x02\0\0\0\0\0\0\0\0\0\0\0\0')],
    ['an MP3 with no frame after its tag', mp3File(0, { id3: true })],
    // 42,000 frames of 36 ms: 1,512 s (a Xing header's own count is never believed, so the frames are there).
    ['an MP3 of 1,512 s, past gpt-4o-transcribe\'s 1,500', mp3File(42_000)],
  ])('refuses %s with 400 naming file, before any hold or upstream call', async (_name, file) => {
    const agent = await funded();
    const before = (await received()).length;
    await expectError(await transcribe(agent.api_key, file, { model: 'openai/gpt-4o-transcribe' }), 400, 'invalid_request', 'invalid_request_error', 'file');
    expect((await received()).length).toBe(before);
    expect(await balance(agent.api_key)).toBe('1.000000');
    expect(await spooledObjects(agent.account_id)).toBe(0);
  });

  it('refuses a file past 25 MB with 400 naming file, keeping no copy of it', async () => {
    const agent = await funded();
    const big = new Uint8Array(25 * 1024 * 1024 + 1);
    big.set(mp3File(1));
    await expectError(await transcribe(agent.api_key, big, { model: 'whisper-1' }), 400, 'invalid_request', 'invalid_request_error', 'file');
    expect(await spooledObjects(agent.account_id)).toBe(0);
    expect(await balance(agent.api_key)).toBe('1.000000');
  });

  it('refuses a request without audio (naming file), a format the model does not answer and a prompt Scribe does not take', async () => {
    const agent = await funded();
    await expectError(await transcribe(agent.api_key, null, { model: 'whisper-1' }), 400, 'invalid_request', 'invalid_request_error', 'file');
    await expectError(await transcribe(agent.api_key, mp3File(10), { model: 'gpt-4o-transcribe', response_format: 'verbose_json' }), 400, 'invalid_request', 'invalid_request_error', 'response_format');
    await expectError(await transcribe(agent.api_key, mp3File(10), { model: 'elevenlabs/scribe-v1', prompt: 'Names: Zoë' }), 400, 'invalid_request', 'invalid_request_error', 'prompt');
    await expectError(await transcribe(agent.api_key, mp3File(10), { model: 'whisper-1', timestamp_granularities: 'word' }), 400, 'invalid_request', 'invalid_request_error', 'timestamp_granularities');
    await expectError(await transcribe(agent.api_key, mp3File(10), { model: 'openai/gpt-4o-mini' }), 400, 'invalid_request', 'invalid_request_error', 'model');
    expect(await balance(agent.api_key)).toBe('1.000000');
  });

  it('releases the hold when the upstream fails: 502, nothing charged, the lookup records the failure', async () => {
    const agent = await funded();
    const res = await transcribe(agent.api_key, wavFile(2), { model: 'whisper-1', language: 'zz' });
    expect(res.status).toBe(502);
    expect(await balance(agent.api_key)).toBe('1.000000');
    const lookup = await send(`/v1/requests/${res.headers.get('X-Service-Request-Id')}`, agent.api_key);
    expect(await lookup.json()).toMatchObject({ status: 'failed', cost_usd: '0.000000', path: '/v1/audio/transcriptions' });
  });

  it('records the seconds billed in the request lookup', async () => {
    const agent = await funded();
    const res = await transcribe(agent.api_key, wavFile(4), { model: 'whisper-1' });
    const lookup = await send(`/v1/requests/${res.headers.get('X-Service-Request-Id')}`, agent.api_key);
    expect(await lookup.json()).toMatchObject({ status: 'succeeded', cost_usd: '0.000400', model: 'openai/whisper-1', provider: 'openai', usage: { seconds: 4 } });
  });
});

describe('POST /v1/audio/transcriptions in an organization (D29)', () => {
  it("charges a member's transcription to the organization's balance", async () => {
    const org = await createOrganization('listeners', '1');
    const member = await register();
    expect((await join(member, await invite(org.organization_id, { auto_approve: true }))).status).toBe(200);
    const res = await transcribe(member.api_key, mp3File(250), { model: 'whisper-1' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('X-Service-Cost')).toBe('0.000900');
    await eventually(async () => (await organization(org.organization_id)).balance_usd, '0.999100');
  });
});

describe('POST /v1/audio/transcriptions, an upload named by file_url', () => {
  it('holds the upload\'s size at 8 kbit/s, quotes that bound, and charges only the measured seconds', async () => {
    // 36,000 bytes of 32 kbit/s MP3: 9 s measured, at most 36 s by its size.
    const file = mp3File(250);
    const agent = await funded('0.003');
    const url = await upload(agent.api_key, file);
    const quote = await send('/v1/quote', agent.api_key, { method: 'POST', body: JSON.stringify({ path: '/v1/audio/transcriptions', body: { model: 'whisper-1', file_url: url } }) });
    expect(quote.status, await quote.clone().text()).toBe(200);
    expect(await quote.json()).toMatchObject({ worst_case_usd: '0.003600' });
    // $0.003 does not cover the 36 s bound: 402, though the file would cost $0.0009.
    await expectError(await transcribeUrl(agent.api_key, { model: 'whisper-1', file_url: url }), 402, 'insufficient_credits', 'insufficient_credits_error');
    // The same file sent in the request is measured first: its hold is its price.
    const direct = await transcribe(agent.api_key, file, { model: 'whisper-1' });
    expect(direct.status, await direct.clone().text()).toBe(200);
    expect(await adminCredit(agent.account_id, '0.01')).toHaveProperty('status', 200);
    const res = await transcribeUrl(agent.api_key, { model: 'whisper-1', file_url: url });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('X-Service-Cost')).toBe('0.000900');
    expect(micros(await balance(agent.api_key))).toBe(3000 + 10_000 - 900 - 900);
  });

  it('cuts off an upload found longer than the model takes while it streams: 400 naming file_url, nothing charged', async () => {
    const agent = await funded();
    // 50,000 frames of 36 ms: 1,800 s, past gpt-4o-transcribe's 1,500.
    const url = await upload(agent.api_key, mp3File(50_000));
    const before = (await received()).length;
    await expectError(await transcribeUrl(agent.api_key, { model: 'gpt-4o-transcribe', file_url: url }), 400, 'invalid_request', 'invalid_request_error', 'file_url');
    expect(await balance(agent.api_key)).toBe('1.000000');
    // The upstream never got a whole file to transcribe: the body stopped at the 1,500th second.
    expect((await received()).length).toBe(before);
  });

  it.each([
    ['an MP3 upload whose tag hides no frame', mp3File(0, { id3: true }), 'audio/mpeg'],
    ['a WAV upload with no data chunk', wavFile(1).subarray(0, 36), 'audio/wav'],
  ])('refuses %s with 400 naming file_url once it is read, the hold released', async (_name, bytes, type) => {
    const agent = await funded();
    const url = await upload(agent.api_key, bytes, type);
    await expectError(await transcribeUrl(agent.api_key, { model: 'whisper-1', file_url: url }), 400, 'invalid_request', 'invalid_request_error', 'file_url');
    expect(await balance(agent.api_key)).toBe('1.000000');
    expect(((await (await send('/agent/account', agent.api_key)).json()) as { held_usd: string }).held_usd).toBe('0.000000');
  });

  it('answers 404 naming file_url for another account\'s upload, and 400 for a link that is no upload', async () => {
    const owner = await funded();
    const url = await upload(owner.api_key, wavFile(1), 'audio/wav');
    const other = await funded();
    await expectError(await transcribeUrl(other.api_key, { model: 'whisper-1', file_url: url }), 404, 'not_found', 'invalid_request_error', 'file_url');
    await expectError(await transcribeUrl(other.api_key, { model: 'whisper-1', file_url: 'https://example.com/a.mp3' }), 400, 'invalid_request', 'invalid_request_error', 'file_url');
  });

  it("lets a sub-key name only the uploads it reserved itself (D35): its parent's is a 404", async () => {
    const agent = await funded();
    const parentUpload = await upload(agent.api_key, wavFile(1), 'audio/wav');
    const minted = await send('/agent/keys', agent.api_key, { method: 'POST', body: JSON.stringify({ name: 'listener' }), headers: { 'Content-Type': 'application/json' } });
    const { api_key: sub } = (await minted.json()) as { api_key: string };
    await expectError(await transcribeUrl(sub, { model: 'whisper-1', file_url: parentUpload }), 404, 'not_found', 'invalid_request_error', 'file_url');
    const own = await upload(sub, wavFile(1), 'audio/wav');
    expect((await transcribeUrl(sub, { model: 'whisper-1', file_url: own })).status).toBe(200);
    expect((await transcribeUrl(agent.api_key, { model: 'whisper-1', file_url: own })).status).toBe(200);
  });

  it('refuses a key whose allowed routes leave out transcription', async () => {
    const agent = await funded();
    const minted = await send('/agent/keys', agent.api_key, { method: 'POST', body: JSON.stringify({ name: 'chat only', allowed_routes: ['chat'] }), headers: { 'Content-Type': 'application/json' } });
    expect(minted.status, await minted.clone().text()).toBe(201);
    const { api_key } = (await minted.json()) as { api_key: string };
    const res = await transcribe(api_key, wavFile(1), { model: 'whisper-1' });
    expect(res.status).toBe(403);
    expect(await balance(agent.api_key)).toBe('1.000000');
  });
});

describe('transcription under /x402/v1', () => {
  const x402 = { ...gateway, BASE_RPC_URL: 'http://127.0.0.1:9', USDC_DEPOSIT_ADDRESS: '0x1111111111111111111111111111111111111111', X402_FACILITATOR_URL: 'http://127.0.0.1:9' } as Env;
  const post = async (init: RequestInit) => {
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(`${BASE}/x402/v1/audio/transcriptions`, { method: 'POST', ...init }), x402, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };

  it('serves a keyed multipart request as its /v1 route, and refuses a keyless file_url (no account, no uploads) with 400 naming it', async () => {
    const agent = await funded();
    const res = await post({ headers: { Authorization: `Bearer ${agent.api_key}` }, body: form(wavFile(2), { model: 'whisper-1' }) });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('X-Service-Cost')).toBe('0.000200');
    const keyless = await post({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ model: 'whisper-1', file_url: `${BASE}/files/uploads/${agent.account_id}/x.mp3` }) });
    await expectError(keyless, 400, 'invalid_request', 'invalid_request_error', 'file_url');
  });

  it("challenges a keyless multipart request for its file's bound: its size at the lowest bitrate, the model's price", async () => {
    const file = wavFile(2);
    const challenge = await post({ body: form(file, { model: 'whisper-1' }) });
    expect(challenge.status, await challenge.clone().text()).toBe(402);
    expect(challenge.headers.get('PAYMENT-REQUIRED')).toBeTruthy();
    const { error } = (await challenge.json()) as { error: { code: string; funding: { required_usd: string } } };
    expect(error.code).toBe('insufficient_credits');
    // whisper-1 is $0.36 an hour; the bound is the file's bytes at 8 kbit/s, in whole seconds.
    const seconds = Math.ceil((file.byteLength * 8) / 8000);
    expect(error.funding.required_usd).toBe(formatUsd(Math.round((seconds * 360_000) / 3600)));
    // A form the route would refuse is refused before any challenge.
    await expectError(await post({ body: form(file, { model: 'whisper-1', response_format: 'xml' }) }), 400, 'invalid_request', 'invalid_request_error', 'response_format');
  });
});

describe('transcription models and the transcribe tool', () => {
  it('lists transcription models in GET /v1/models priced per second, with their limits', async () => {
    const { data } = (await (await send('/v1/models', 'unused')).json()) as { data: { id: string; type: string; pricing: Record<string, unknown>; transcription?: Record<string, unknown> }[] };
    const whisper = data.find((m) => m.id === 'openai/whisper-1');
    expect(whisper).toMatchObject({ type: 'transcription', pricing: { input: 0, output: 0.0001, unit: 'per_second', display: '$0.36 / hour of audio' } });
    expect(whisper?.transcription).toEqual({ max_file_bytes: 25 * 1024 * 1024, max_seconds: null, response_formats: ['json', 'text', 'verbose_json'], minimum_billed_seconds: 0 });
    expect(data.find((m) => m.id === 'openai/whisper-large-v3')).toMatchObject({ pricing: { unit: 'per_second', display: '$0.111 / hour of audio, at least 10 s per request' }, transcription: { minimum_billed_seconds: 10 } });
    expect(data.find((m) => m.id === 'openai/gpt-4o-transcribe')?.transcription).toMatchObject({ max_seconds: 1500, response_formats: ['json', 'text'] });
    expect(data.filter((m) => m.type === 'transcription').map((m) => m.id).sort()).toEqual(
      ['elevenlabs/scribe-v1', 'openai/gpt-4o-mini-transcribe', 'openai/gpt-4o-transcribe', 'openai/whisper-1', 'openai/whisper-large-v3', 'openai/whisper-large-v3-turbo'],
    );
  });

  it('transcribes an upload through MCP\'s transcribe tool, at the same price', async () => {
    const agent = await funded();
    const url = await upload(agent.api_key, wavFile(6), 'audio/wav');
    const res = await send('/mcp', agent.api_key, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'transcribe', arguments: { model: 'whisper-1', file_url: url } } }),
    });
    const { result } = (await res.json()) as { result: { isError?: boolean; structuredContent: { text: string; usage: { seconds: number } }; _meta: Record<string, string> } };
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ text: `transcript of ${wavFile(6).length} bytes`, usage: { type: 'duration', seconds: 6 } });
    expect(result._meta['x-service/cost_usd']).toBe('0.000600');
    expect(micros('1') - micros(await balance(agent.api_key))).toBe(600);
  });
});
