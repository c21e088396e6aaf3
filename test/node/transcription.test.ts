import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mp3File, wavFile } from '../fixtures/audio';
import { startTranscriptionUpstream, type TranscriptionUpstream } from '../upstreams/transcription';
import { fundedAgent } from './agents';
import { startGateway, type RunningGateway } from './gateway-process';

/**
 * `POST /v1/audio/transcriptions` as the official `openai` SDK calls it
 * (`audio.transcriptions.create({ file, model })`, a multipart body with the file first), against
 * the gateway under `npm start`, OpenAI's, Groq's and ElevenLabs' speech-to-text played locally.
 */

const ADMIN = 'transcription-admin-token-0123456789';
const KEYS = { openai: 'sk-transcribe-e2e', groq: 'gsk-transcribe-e2e', elevenlabs: 'xi-transcribe-e2e' };
let upstream: TranscriptionUpstream;
let gateway: RunningGateway;

beforeAll(async () => {
  upstream = await startTranscriptionUpstream(KEYS);
  gateway = await startGateway({
    ADMIN_TOKEN: ADMIN,
    OPENAI_API_KEY: KEYS.openai,
    OPENAI_BASE_URL: `${upstream.url}/v1`,
    GROQ_API_KEY: KEYS.groq,
    GROQ_BASE_URL: `${upstream.url}/openai/v1`,
    ELEVENLABS_API_KEY: KEYS.elevenlabs,
    ELEVENLABS_BASE_URL: upstream.url,
  });
});
afterAll(async () => {
  await gateway?.stop();
  await upstream?.stop();
});

const micros = (usd: string) => Math.round(Number(usd) * 1e6);

describe('the simulators, as the official openai SDK reads them', () => {
  it.each([
    ['OpenAI', '/v1', KEYS.openai, 'whisper-1'],
    ['Groq', '/openai/v1', KEYS.groq, 'whisper-large-v3'],
  ])('%s: json, text and verbose_json in the documented shapes', async (_name, prefix, apiKey, model) => {
    const client = new OpenAI({ apiKey, baseURL: `${upstream.url}${prefix}`, maxRetries: 0 });
    const file = async () => toFile(wavFile(1), 'a.wav');
    expect(await client.audio.transcriptions.create({ file: await file(), model })).toMatchObject({ text: expect.stringMatching(/^transcript of \d+ bytes$/) });
    expect(await client.audio.transcriptions.create({ file: await file(), model, response_format: 'text' })).toMatch(/^transcript of \d+ bytes\n$/);
    const verbose = await client.audio.transcriptions.create({ file: await file(), model, response_format: 'verbose_json' });
    expect(verbose).toMatchObject({ task: 'transcribe', language: 'english', duration: expect.any(Number), segments: [expect.objectContaining({ id: 0 })] });
    expect(await client.audio.transcriptions.create({ file: await file(), model: 'nope' }).catch((err: unknown) => err)).toBeInstanceOf(OpenAI.BadRequestError);
  });
});

describe('audio.transcriptions.create with the openai SDK', () => {
  it('transcribes an MP3 file on whisper-1: the text, and the balance drop is the measured 9 s at $0.006 a minute', async () => {
    const agent = await fundedAgent(gateway.url, ADMIN, '1');
    const client = new OpenAI({ apiKey: agent.apiKey, baseURL: `${gateway.url}/v1` });
    const file = mp3File(250, { id3: true });
    const { data, response } = await client.audio.transcriptions.create({ file: await toFile(file, 'meeting.mp3'), model: 'whisper-1' }).withResponse();
    expect(data.text).toBe(`transcript of ${file.length} bytes`);
    expect(response.headers.get('x-service-cost')).toBe('0.000900');
    expect(micros('1') - micros((await agent.account()).balance_usd)).toBe(900);
    expect(upstream.received.at(-1)).toMatchObject({ fields: { model: 'whisper-1' }, file: { name: 'audio.mp3', bytes: file.length } });
  });

  it('answers response_format text as a string (billed by the tokens OpenAI reports), and verbose_json on Groq (billed by the WAV header)', async () => {
    const agent = await fundedAgent(gateway.url, ADMIN, '1');
    const client = new OpenAI({ apiKey: agent.apiKey, baseURL: `${gateway.url}/v1` });
    const text = await client.audio.transcriptions.create({ file: await toFile(wavFile(4), 'note.wav'), model: 'openai/gpt-4o-mini-transcribe', response_format: 'text' });
    expect(text).toBe(`transcript of ${wavFile(4).length} bytes`);
    const verbose = await client.audio.transcriptions.create({ file: await toFile(wavFile(12), 'note.wav'), model: 'whisper-large-v3-turbo', response_format: 'verbose_json', language: 'en' });
    expect(verbose).toMatchObject({ task: 'transcribe', text: `transcript of ${wavFile(12).length} bytes` });
    // The simulator's 10 audio tokens at $3 and 5 output tokens at $5 per million (55); 12 s at $0.04 an hour (133.3, rounded once).
    expect(micros('1') - micros((await agent.account()).balance_usd)).toBe(55 + 133);
  });

  it('surfaces a file that is not audio as the SDK\'s BadRequestError naming file, nothing charged', async () => {
    const agent = await fundedAgent(gateway.url, ADMIN, '1');
    const client = new OpenAI({ apiKey: agent.apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const refused = await client.audio.transcriptions.create({ file: await toFile(new TextEncoder().encode('not audio at all'), 'x.mp3'), model: 'whisper-1' }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('file');
    expect((await agent.account()).balance_usd).toBe('1.000000');
  });
});
