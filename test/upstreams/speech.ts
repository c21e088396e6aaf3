/**
 * Local stand-ins for the speech APIs the gateway speaks. OpenAI
 * (https://platform.openai.com/docs/api-reference/audio/createSpeech): `POST /v1/audio/speech`
 * with `{model, input, voice, response_format}` answers `audio/mpeg` bytes; an input over 4,096
 * characters or an unknown voice gets OpenAI's 400. ElevenLabs
 * (https://elevenlabs.io/docs/api-reference/text-to-speech/convert):
 * `POST /v1/text-to-speech/{voice_id}?output_format=mp3_44100_128` with the `xi-api-key` header
 * and `{text, model_id}` answers `audio/mpeg`; a bad key is 401 and a text over the model's limit
 * 400, both as `{detail: {status, message}}`. Each answer is a real MP3: an ID3v2 tag, then
 * 128 kbit/s 44.1 kHz MPEG-1 Layer III frames, one per 20 characters, whose bytes come from the
 * text, so tests can check that the parts were joined in order.
 */
import { sendJson, startUpstream, type Upstream } from './server';

export interface SpeechUpstream extends Upstream {
  /** Every MP3 answered, in order. */
  answered: Buffer[];
}

const OPENAI_VOICES = new Set(['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse']);
const ELEVENLABS_LIMITS: Record<string, number> = { eleven_v3: 3000, eleven_multilingual_v2: 10_000 };
/** 144 * 128000 / 44100, no padding. */
const FRAME_BYTES = 417;

export async function startOpenAISpeechUpstream(apiKey = 'sk-speech-test'): Promise<SpeechUpstream> {
  const answered: Buffer[] = [];
  const upstream = await startUpstream((request, res) => {
    const error = (status: number, message: string, param: string | null) => sendJson(res, status, { error: { message, type: 'invalid_request_error', param, code: null } });
    if (request.headers.authorization !== `Bearer ${apiKey}`) return error(401, 'Incorrect API key provided.', null);
    if (request.method !== 'POST' || request.path !== '/v1/audio/speech') return error(404, `Invalid URL (${request.method} ${request.path})`, null);
    const { input, voice } = request.body as { input?: string; voice?: string };
    if (typeof input !== 'string' || input.length > 4096) return error(400, "[{'type': 'string_too_long', 'loc': ('body', 'input'), 'msg': 'String should have at most 4096 characters'}]", 'input');
    if (!OPENAI_VOICES.has(voice ?? '')) return error(400, `Invalid value: '${voice}'. Supported values are: ${[...OPENAI_VOICES].map((v) => `'${v}'`).join(', ')}.`, 'voice');
    sendMp3(res, input, answered);
  });
  return { ...upstream, answered };
}

export async function startElevenLabsUpstream(apiKey = 'xi-test-key'): Promise<SpeechUpstream> {
  const answered: Buffer[] = [];
  const upstream = await startUpstream((request, res) => {
    const detail = (status: number, code: string, message: string) => sendJson(res, status, { detail: { status: code, message } });
    if (request.headers['xi-api-key'] !== apiKey) return detail(401, 'invalid_api_key', 'Invalid API key');
    const match = /^\/v1\/text-to-speech\/([^/?]+)(\?.*)?$/.exec(request.path);
    if (request.method !== 'POST' || !match) return detail(404, 'not_found', 'Not found');
    const { text, model_id } = request.body as { text?: string; model_id?: string };
    if (typeof text !== 'string' || text.length === 0) return detail(400, 'invalid_text', 'Text is required.');
    const limit = ELEVENLABS_LIMITS[model_id ?? ''] ?? 30_000;
    if (text.length > limit) return detail(400, 'max_character_limit_exceeded', `Text is too long: ${text.length} characters, the limit of ${model_id} is ${limit}.`);
    sendMp3(res, text, answered);
  });
  return { ...upstream, answered };
}

function sendMp3(res: Parameters<Parameters<typeof startUpstream>[0]>[1], text: string, answered: Buffer[]): void {
  const bytes = mp3(text);
  answered.push(bytes);
  res.writeHead(200, { 'Content-Type': 'audio/mpeg', 'Content-Length': String(bytes.length) });
  res.end(bytes);
}

/** An ID3v2.4 tag with 10 bytes of padding, then one frame per 20 characters of `text`. */
export function mp3(text: string): Buffer {
  const tag = Buffer.from([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, ...new Array(10).fill(0)]);
  const frames = Array.from({ length: Math.ceil(text.length / 20) }, (_, i) => {
    const frame = Buffer.alloc(FRAME_BYTES, text.charCodeAt(i * 20) & 0xff);
    frame.set([0xff, 0xfb, 0x90, 0x00]);
    return frame;
  });
  return Buffer.concat([tag, ...frames]);
}
