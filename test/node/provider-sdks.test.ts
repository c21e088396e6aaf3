import { createHash } from 'node:crypto';
import { ElevenLabsClient, ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { Mistral } from '@mistralai/mistralai';
import Together from 'together-ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mp3File } from '../fixtures/audio';
import { simulatedTokens, simulatedVector, startOpenAIEmbeddingsUpstream } from '../upstreams/embeddings';
import type { Upstream } from '../upstreams/server';
import { startElevenLabsUpstream, type SpeechUpstream } from '../upstreams/speech';
import { startTranscriptionUpstream, type ReceivedTranscription, type TranscriptionUpstream } from '../upstreams/transcription';

/**
 * The simulators the gateway is tested against, checked against each provider's official SDK
 * (no gateway here): each SDK is pointed at its simulator's base URL, and the simulator must take
 * the request as the SDK sends it (its paths, its auth header, its multipart fields and order)
 * while the SDK must parse the answer (ElevenLabs' SDK validates it against the API's schema).
 */

const KEYS = { openai: 'sk-sdk-openai', groq: 'gsk-sdk', elevenlabs: 'xi-sdk-key' };
const MISTRAL_KEY = 'mistral-sdk-key';
const TOGETHER_KEY = 'together-sdk-key';
let transcription: TranscriptionUpstream;
let speech: SpeechUpstream;
let mistral: Upstream;
let together: Upstream;

beforeAll(async () => {
  [transcription, speech, mistral, together] = await Promise.all([
    startTranscriptionUpstream(KEYS),
    startElevenLabsUpstream(KEYS.elevenlabs),
    startOpenAIEmbeddingsUpstream({ name: 'mistral', apiKey: MISTRAL_KEY, models: { 'mistral-embed': 1024 } }),
    startOpenAIEmbeddingsUpstream({ name: 'together', apiKey: TOGETHER_KEY, models: { 'intfloat/multilingual-e5-large-instruct': 1024 } }),
  ]);
});
afterAll(async () => {
  await Promise.all([transcription, speech, mistral, together].map((upstream) => upstream?.stop()));
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('ElevenLabs simulators against @elevenlabs/elevenlabs-js', () => {
  it('speechToText.convert: the simulator takes the SDK\'s multipart (model_id before file, xi-api-key) and the SDK parses its transcript, words and all', async () => {
    const client = new ElevenLabsClient({ apiKey: KEYS.elevenlabs, baseUrl: transcription.url, maxRetries: 0 });
    const file = mp3File(250);
    const answer = await client.speechToText.convert({ file: new Blob([Buffer.from(file)], { type: 'audio/mpeg' }), modelId: 'scribe_v1', languageCode: 'en' });
    expect(answer).toMatchObject({ text: `transcript of ${file.length} bytes`, languageCode: 'en', languageProbability: expect.any(Number) });
    const words = 'words' in answer ? answer.words : [];
    expect(words.filter((word) => word.type === 'word').map((word) => word.text)).toEqual(['transcript', 'of', `${file.length}`, 'bytes']);
    expect(words.every((word) => typeof word.logprob === 'number' && typeof word.start === 'number')).toBe(true);
    const sent = transcription.received.at(-1) as ReceivedTranscription;
    expect(sent).toMatchObject({ path: '/v1/speech-to-text', fields: { model_id: 'scribe_v1', language_code: 'en' }, file: { bytes: file.length, sha256: sha256(file) } });
  });

  it('speechToText.convert with a wrong key or an unknown model: the SDK raises the status the simulator answers', async () => {
    const file = new Blob([Buffer.from(mp3File(10))], { type: 'audio/mpeg' });
    const wrong = new ElevenLabsClient({ apiKey: 'xi-wrong', baseUrl: transcription.url, maxRetries: 0 });
    await expect(wrong.speechToText.convert({ file, modelId: 'scribe_v1' })).rejects.toMatchObject({ statusCode: 401 });
    const client = new ElevenLabsClient({ apiKey: KEYS.elevenlabs, baseUrl: transcription.url, maxRetries: 0 });
    const unknown = await client.speechToText.convert({ file, modelId: 'scribe_v0' }).catch((err: unknown) => err);
    expect(unknown).toBeInstanceOf(ElevenLabsError);
    expect((unknown as ElevenLabsError).statusCode).toBe(400);
  });

  it('textToSpeech.convert: the simulator takes the SDK\'s voice path, output_format query and JSON body; the SDK streams the MP3 it answers', async () => {
    const client = new ElevenLabsClient({ apiKey: KEYS.elevenlabs, baseUrl: speech.url, maxRetries: 0 });
    const text = 'Hello from the official SDK, forty chars.';
    const audio = await client.textToSpeech.convert('JBFqnCBsd6RMkjVDRZzb', { text, modelId: 'eleven_multilingual_v2', outputFormat: 'mp3_44100_128' });
    const bytes = Buffer.from(await new Response(audio).arrayBuffer());
    expect(bytes.equals(speech.answered.at(-1)!)).toBe(true);
    expect(bytes.subarray(0, 3).toString('latin1')).toBe('ID3');
    const sent = speech.requests.at(-1)!;
    expect(sent.path).toBe('/v1/text-to-speech/JBFqnCBsd6RMkjVDRZzb?output_format=mp3_44100_128');
    expect(sent.body).toMatchObject({ text, model_id: 'eleven_multilingual_v2' });
  });
});

describe('embeddings simulators against the Mistral and Together SDKs', () => {
  it('Mistral embeddings.create: the SDK\'s `inputs` arrive as `input`, and it parses the vectors, id and usage', async () => {
    const client = new Mistral({ apiKey: MISTRAL_KEY, serverURL: mistral.url, retryConfig: { strategy: 'none' } });
    const inputs = ['a note to remember', 'another one'];
    const answer = await client.embeddings.create({ model: 'mistral-embed', inputs });
    expect(answer.id).toEqual(expect.any(String));
    expect(answer.model).toBe('mistral-embed');
    expect(answer.data.map((item) => item.index)).toEqual([0, 1]);
    expect(answer.data[0]!.embedding).toEqual(simulatedVector('mistral-embed', inputs[0]!, 1024));
    const tokens = inputs.reduce((sum, input) => sum + simulatedTokens(input), 0);
    expect(answer.usage).toMatchObject({ promptTokens: tokens, totalTokens: tokens });
    expect(mistral.requests.at(-1)).toMatchObject({ path: '/v1/embeddings', body: { model: 'mistral-embed', input: inputs } });
  });

  it('Mistral embeddings.create with a wrong key: the SDK raises 401', async () => {
    const client = new Mistral({ apiKey: 'wrong', serverURL: mistral.url, retryConfig: { strategy: 'none' } });
    await expect(client.embeddings.create({ model: 'mistral-embed', inputs: 'x' })).rejects.toMatchObject({ statusCode: 401 });
  });

  it('Together embeddings.create: the SDK posts to {baseURL}/embeddings with Bearer auth and reads the vectors and usage', async () => {
    const client = new Together({ apiKey: TOGETHER_KEY, baseURL: `${together.url}/v1`, maxRetries: 0 });
    const model = 'intfloat/multilingual-e5-large-instruct';
    const input = ['what the agent heard', 'and what it read'];
    const answer = await client.embeddings.create({ model, input });
    expect(answer).toMatchObject({ object: 'list', model });
    expect(answer.data.map((item) => [item.object, item.index])).toEqual([['embedding', 0], ['embedding', 1]]);
    expect(answer.data[1]!.embedding).toEqual(simulatedVector(model, input[1]!, 1024));
    expect(together.requests.at(-1)).toMatchObject({ path: '/v1/embeddings', body: { model, input } });
    const wrong = new Together({ apiKey: 'wrong', baseURL: `${together.url}/v1`, maxRetries: 0 });
    await expect(wrong.embeddings.create({ model, input: 'x' })).rejects.toMatchObject({ status: 401 });
  });
});
