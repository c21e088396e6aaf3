/**
 * Speech-to-text upstreams on 127.0.0.1, each reading the multipart body as it streams in (Node's
 * web `Request.formData()`, a real multipart parser), in its provider's documented shape:
 * - OpenAI `POST /v1/audio/transcriptions` (https://platform.openai.com/docs/api-reference/audio/createTranscription):
 *   `file`, `model`, `language`, `prompt`, `response_format` `json` / `text` / `verbose_json`
 *   (the GPT-4o transcribers answer `json` and `text` only), Bearer auth;
 * - Groq the same under `/openai/v1` (https://console.groq.com/docs/speech-to-text);
 * - ElevenLabs `POST /v1/speech-to-text` (https://elevenlabs.io/docs/api-reference/speech-to-text/convert):
 *   `file`, `model_id`, `language_code`, `xi-api-key` auth; `{language_code, language_probability, text, words}`, each
 *   word with the `logprob` the official SDK requires; an unknown `model_id` is a 400
 *   (test/node/provider-sdks.test.ts checks it against @elevenlabs/elevenlabs-js).
 * The transcript names the bytes received (`transcript of N bytes`), so a test sees that the whole
 * file arrived. A `language` (or `language_code`) of `zz` answers 500, as a failing upstream.
 * `GET /__recorded` lists what each request carried (fields, file name, type, size and SHA-256).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

export interface ReceivedTranscription {
  path: string;
  contentLength: string | undefined;
  fields: Record<string, string>;
  /** `sha256`: hex, so a test sees the very bytes that arrived. */
  file: { name: string; type: string; bytes: number; sha256: string } | null;
}

export interface TranscriptionUpstream {
  url: string;
  received: ReceivedTranscription[];
  stop(): Promise<void>;
}

const OPENAI_MODELS = ['whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe'];
const GROQ_MODELS = ['whisper-large-v3', 'whisper-large-v3-turbo'];

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json') {
  res.writeHead(status, { 'Content-Type': type });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

const openaiError = (res: ServerResponse, status: number, message: string, param: string | null = null) =>
  send(res, status, { error: { message, type: 'invalid_request_error', param, code: null } });

async function readForm(req: IncomingMessage): Promise<{ fields: Record<string, string>; file: File | null }> {
  const request = new Request('http://simulator.test/', {
    method: 'POST',
    headers: { 'content-type': req.headers['content-type'] ?? '' },
    body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
  const form = await request.formData();
  const fields: Record<string, string> = {};
  let file: File | null = null;
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields[name] = value;
    else if (name === 'file') file = value;
  }
  return { fields, file };
}

/**
 * The GPT-4o transcribers' usage, as OpenAI reports it (type `tokens`, input split into text and
 * audio): 10 audio tokens, the prompt's text at 4 characters a token, and 5 output tokens, or the
 * count a `[transcript-tokens=N]` tag in the prompt asks (a model that writes its longest).
 */
function tokenUsage(prompt: string | undefined) {
  const text = prompt ? Math.ceil(prompt.length / 4) : 0;
  const output = Number(/\[transcript-tokens=(\d+)\]/.exec(prompt ?? '')?.[1] ?? 5);
  return { type: 'tokens', input_tokens: 10 + text, input_token_details: { text_tokens: text, audio_tokens: 10 }, output_tokens: output, total_tokens: 10 + text + output };
}

/** The three providers on one server (their paths differ); `apiKey` is each one's key. */
export async function startTranscriptionUpstream(keys: { openai: string; groq: string; elevenlabs: string }): Promise<TranscriptionUpstream> {
  const received: ReceivedTranscription[] = [];
  const server = createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/__recorded') return send(res, 200, received);
    const path = req.url ?? '/';
    const openaiShaped = path === '/v1/audio/transcriptions' ? 'openai' : path === '/openai/v1/audio/transcriptions' ? 'groq' : null;
    if (!openaiShaped && path !== '/v1/speech-to-text') return send(res, 404, { error: { message: `No route ${path}` } });
    const authorized = openaiShaped ? req.headers.authorization === `Bearer ${keys[openaiShaped]}` : req.headers['xi-api-key'] === keys.elevenlabs;
    if (!authorized) return send(res, 401, { error: { message: 'Invalid API key', type: 'invalid_request_error', code: 'invalid_api_key' } });
    let form: Awaited<ReturnType<typeof readForm>>;
    try {
      form = await readForm(req);
    } catch (err) {
      return openaiError(res, 400, `Could not parse multipart form: ${String(err)}`);
    }
    const { fields, file } = form;
    const sha256 = file ? createHash('sha256').update(new Uint8Array(await file.arrayBuffer())).digest('hex') : '';
    received.push({ path, contentLength: req.headers['content-length'], fields, file: file && { name: file.name, type: file.type, bytes: file.size, sha256 } });
    if (!file) return openaiError(res, 400, 'file is required', 'file');
    const text = `transcript of ${file.size} bytes`;
    if (openaiShaped) {
      const model = fields.model ?? '';
      if (!(openaiShaped === 'openai' ? OPENAI_MODELS : GROQ_MODELS).includes(model)) return openaiError(res, 400, `Invalid model ${model}`, 'model');
      if (!/\.(mp3|wav|m4a|mp4|mpeg|mpga|ogg|webm|flac)$/.test(file.name)) return openaiError(res, 400, 'Invalid file format.', 'file');
      if (fields.language === 'zz') return openaiError(res, 500, 'The server had an error while processing your request.');
      const format = fields.response_format ?? 'json';
      if (model.startsWith('gpt-4o') && format !== 'json' && format !== 'text') return openaiError(res, 400, `response_format '${format}' is not compatible with model '${model}'. Use 'json' or 'text'.`, 'response_format');
      if (format === 'text') return send(res, 200, `${text}\n`, 'text/plain; charset=utf-8');
      if (format === 'verbose_json') {
        return send(res, 200, { task: 'transcribe', language: 'english', duration: 1.5, text, segments: [{ id: 0, seek: 0, start: 0, end: 1.5, text, tokens: [1], temperature: 0, avg_logprob: -0.2, compression_ratio: 1, no_speech_prob: 0 }] });
      }
      return send(res, 200, model.startsWith('gpt-4o') ? { text, usage: tokenUsage(fields.prompt) } : { text, usage: { type: 'duration', seconds: 2 } });
    }
    // An unknown id is a 400 in ElevenLabs' `{detail: {status, message}}` (its 422 is FastAPI's list of field errors).
    if (fields.model_id !== 'scribe_v1') return send(res, 400, { detail: { status: 'invalid_model_id', message: `An invalid ID has been received: '${fields.model_id}'. Make sure to provide a correct one.` } });
    if (fields.language_code === 'zz') return send(res, 500, { detail: { status: 'internal_error', message: 'Transcription failed' } });
    const words = text.split(' ').flatMap((word, i) => [
      { text: word, start: i * 0.5, end: i * 0.5 + 0.4, type: 'word', speaker_id: 'speaker_0', logprob: -0.05 },
      { text: ' ', start: i * 0.5 + 0.4, end: i * 0.5 + 0.5, type: 'spacing', speaker_id: 'speaker_0', logprob: 0 },
    ]);
    send(res, 200, { language_code: fields.language_code ?? 'eng', language_probability: 0.98, text, words: words.slice(0, -1) });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
