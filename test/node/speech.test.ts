import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startElevenLabsUpstream, startOpenAISpeechUpstream, type SpeechUpstream } from '../upstreams/speech';
import { fundedAgent } from './agents';
import { startGateway, type RunningGateway } from './gateway-process';

/**
 * `POST /v1/audio/speech` as a client meets it: the gateway under `npm start` with `.dev.vars`,
 * OpenAI's and ElevenLabs' speech APIs played locally. The answer is a hosted MP3 link.
 */

const ADMIN = 'speech-admin-token-0123456789';
const OPENAI_KEY = 'sk-speech-test';
const XI_KEY = 'xi-speech-test';
let openaiSpeech: SpeechUpstream;
let elevenlabs: SpeechUpstream;
let gateway: RunningGateway;

beforeAll(async () => {
  [openaiSpeech, elevenlabs] = await Promise.all([startOpenAISpeechUpstream(OPENAI_KEY), startElevenLabsUpstream(XI_KEY)]);
  gateway = await startGateway({
    ADMIN_TOKEN: ADMIN,
    OPENAI_API_KEY: OPENAI_KEY,
    OPENAI_BASE_URL: `${openaiSpeech.url}/v1`,
    ELEVENLABS_API_KEY: XI_KEY,
    ELEVENLABS_BASE_URL: elevenlabs.url,
  });
});
afterAll(async () => {
  await gateway?.stop();
  await openaiSpeech?.stop();
  await elevenlabs?.stop();
});

const agent = (usd: string) => fundedAgent(gateway.url, ADMIN, usd);

function speak(apiKey: string, body: Record<string, unknown>) {
  return fetch(`${gateway.url}/v1/audio/speech`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify(body) });
}

describe('POST /v1/audio/speech', () => {
  it('speaks 5,000 characters as one MP3 link: parts within OpenAI’s limit, split at sentences, joined in order', async () => {
    const { apiKey, account } = await agent('1');
    const input = Array.from({ length: 200 }, (_, i) => `Line ${String(i).padStart(3, '0')} reads a calm and even sentence.`).join(' ').slice(0, 5000);
    expect(input.length).toBe(5000);
    const sentBefore = openaiSpeech.requests.length;
    const res = await speak(apiKey, { model: 'openai/tts-1', input });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { created: number; data: { url: string }[] };
    expect(body.data).toHaveLength(1);

    const sent = openaiSpeech.requests.slice(sentBefore).map((request) => request.body as { model: string; input: string; voice: string; response_format: string });
    expect(sent).toHaveLength(2);
    for (const part of sent) {
      expect(part).toMatchObject({ model: 'tts-1', voice: 'alloy', response_format: 'mp3' });
      expect(part.input.length).toBeLessThanOrEqual(4096);
    }
    expect(sent[0]!.input.endsWith('.')).toBe(true);
    expect(sent.map((part) => part.input).join(' ')).toBe(input);

    const file = await fetch(body.data[0]!.url);
    expect(file.headers.get('content-type')).toBe('audio/mpeg');
    const mp3 = Buffer.from(await file.arrayBuffer());
    const [first, second] = openaiSpeech.answered.slice(-2) as [Buffer, Buffer];
    // The first part keeps its ID3 tag; the second joins as bare frames.
    expect(mp3.equals(Buffer.concat([first, second.subarray(20)]))).toBe(true);
    expect(mp3.subarray(20, 22).equals(Buffer.from([0xff, 0xfb]))).toBe(true);

    // $0.015 per 1,000 characters: 5,000 characters cost $0.075.
    expect(res.headers.get('x-service-cost')).toBe('0.075000');
    expect(await account()).toMatchObject({ balance_usd: '0.925000', held_usd: '0.000000' });
    // D26: the request's lookup tells its characters and cost.
    const lookup = await fetch(`${gateway.url}/v1/requests/${res.headers.get('x-service-request-id')}`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(lookup.status).toBe(200);
    expect(await lookup.json()).toMatchObject({ path: '/v1/audio/speech', model: 'openai/tts-1', status: 'succeeded', cost_usd: '0.075000', usage: { characters: 5000 } });
  });

  it('speaks through ElevenLabs with the model’s default voice, billed per character (D16)', async () => {
    const { apiKey } = await agent('1');
    const openai = new OpenAI({ apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const input = 'Hello from the gateway, in one hundred and three characters exactly, counted by hand with great care!!!';
    expect(input.length).toBe(103);
    const { data, response } = await openai.audio.speech.create({ model: 'elevenlabs/eleven-multilingual-v2', input, voice: '' }).withResponse();
    const body = (await data.json()) as { data: { url: string }[] };
    const sent = elevenlabs.requests.at(-1)!;
    expect(sent.path).toBe('/v1/text-to-speech/JBFqnCBsd6RMkjVDRZzb?output_format=mp3_44100_128');
    expect(sent.body).toEqual({ text: input, model_id: 'eleven_multilingual_v2' });
    expect(Buffer.from(await (await fetch(body.data[0]!.url)).arrayBuffer()).equals(elevenlabs.answered.at(-1)!)).toBe(true);
    // $0.10 per 1,000 characters: 103 characters cost $0.0103.
    expect(response.headers.get('x-service-cost')).toBe('0.010300');
  });

  it('charges nothing when the provider refuses, and refuses bad input and an empty balance before calling it', async () => {
    const { apiKey, account } = await agent('1');
    const refused = await speak(apiKey, { model: 'openai/tts-1', input: 'Hello.', voice: 'nobody' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('nobody');
    expect(await account()).toMatchObject({ balance_usd: '1.000000', held_usd: '0.000000' });

    const sentBefore = openaiSpeech.requests.length;
    const tooLong = await speak(apiKey, { model: 'openai/tts-1', input: 'x'.repeat(10_001) });
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { error: { param: string } }).error.param).toBe('input');
    // A voice that cannot go into the provider's URL (a lone surrogate) is the client's 400, not a 500.
    const unencodable = await speak(apiKey, { model: 'elevenlabs/eleven-v3', input: 'hi', voice: '\ud800' });
    expect(unencodable.status).toBe(400);
    expect(((await unencodable.json()) as { error: { param: string } }).error.param).toBe('voice');
    expect((await speak(apiKey, { model: 'openai/gpt-4o-mini', input: 'hi' })).status).toBe(400);
    const broke = await agent('0');
    expect((await speak(broke.apiKey, { model: 'openai/tts-1', input: 'hi' })).status).toBe(402);
    expect(openaiSpeech.requests.length).toBe(sentBefore);
  });
});
