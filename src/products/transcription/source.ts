import type { Context } from 'hono';
import { ownDataOf } from '../../accounts/data-scope';
import { holdFailureError } from '../../accounts/failures';
import { database } from '../../db';
import { uploadOfKey } from '../../db/uploads';
import type { AppEnv, Caller } from '../../env';
import { GatewayError, validationError } from '../../errors';
import { MalformedMultipart, multipartBoundary, MultipartReader, type MultipartPart } from '../../http/multipart-reader';
import { AUDIO_SNIFF_BYTES, durationMeter, sniffAudio, type AudioFormat } from '../../media/audio-duration';
import { accountPrefix, hostedKey } from '../../media/keys';
import { peekStream } from '../../media/sniff';
import { streamIntoR2 } from '../../media/stream-copy';
import { requireStoredUploads } from '../../media/upload-check';
import { publicBaseUrl } from '../../urls';
import { TranscriptionOptions, type TranscriptionInput } from './request';

/** The most audio a request streams (the catalog's largest `maxBytes`). */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
/** A text field of the multipart body is at most this long (a prompt of 4,000 characters fits). */
const MAX_FIELD_BYTES = 16 * 1024;
const FIELDS = new Set(['file_url', 'model', 'language', 'prompt', 'response_format', 'temperature']);

/** The audio of a request, stored in R2: an upload named by `file_url`, or the request's own file spooled there. */
export interface AudioSource {
  format: AudioFormat;
  bytes: number;
  key: string;
  /** The field errors about the audio name. */
  param: 'file' | 'file_url';
  /** Measured already (a request's own file is read as it is stored), else undefined. */
  seconds?: number;
  /** The object is the request's own copy, deleted once it is answered. */
  spooled: boolean;
}

class TooLarge extends Error {}

/** The format a file's first bytes name, or a 400 naming `param` for one that is not measured audio. */
function formatOf(head: Uint8Array, param: string): AudioFormat {
  if (head.length === 0) throw new GatewayError('invalid_request', 'The audio file is empty.', { param });
  const format = sniffAudio(head);
  if (format === 'unmeasured') throw new GatewayError('invalid_request', 'Ogg, WebM and FLAC audio is not measured here: send MP3, WAV or M4A.', { param });
  if (format === 'unknown') throw new GatewayError('invalid_request', 'The file is not audio the gateway takes (MP3, WAV or M4A).', { param });
  return format;
}

/**
 * Reads a multipart body as it streams: text fields into the options, the `file` part through its
 * duration reader into R2 (a spooled copy under the account's uploads, never held whole), so the
 * fields may come in any order (the `openai` SDK sends `file` before `model`).
 */
export async function readMultipart(c: Context<AppEnv>): Promise<{ input: TranscriptionInput; audio: AudioSource }> {
  const boundary = multipartBoundary(c.req.header('content-type'));
  if (!boundary || !c.req.raw.body) throw new GatewayError('invalid_request', 'The multipart body has no boundary.', { param: 'file' });
  const reader = new MultipartReader(c.req.raw.body, boundary);
  const fields: Record<string, string> = {};
  let spooled: AudioSource | undefined;
  try {
    for (let part = await reader.next(); part; part = await reader.next()) {
      if (part.name === 'file') {
        if (spooled) throw new GatewayError('invalid_request', 'Give one file.', { param: 'file' });
        spooled = await spool(c, part);
      } else if (FIELDS.has(part.name)) {
        fields[part.name] = await MultipartReader.text(part, MAX_FIELD_BYTES);
      } else {
        throw new GatewayError('invalid_request', `${part.name} is not a field of this route.`, { param: part.name });
      }
    }
    const parsed = TranscriptionOptions.safeParse(fields);
    if (!parsed.success) throw validationError(parsed.error);
    if (spooled && fields.file_url !== undefined) throw new GatewayError('invalid_request', 'Give file or file_url, not both.', { param: 'file_url' });
    const audio = spooled ?? (fields.file_url !== undefined ? await uploadSource(c, fields.file_url) : undefined);
    if (!audio) throw new GatewayError('invalid_request', 'Give the audio as file (or file_url).', { param: 'file' });
    return { input: parsed.data, audio };
  } catch (err) {
    if (spooled) await discard(c.env, spooled);
    if (err instanceof MalformedMultipart) throw new GatewayError('invalid_request', `The multipart body is malformed: ${err.message}.`, { param: 'file' });
    throw err;
  }
}

/** The file part, measured and stored as it streams; a 400 naming `file` for one too large, empty or not audio. */
async function spool(c: Context<AppEnv>, part: MultipartPart): Promise<AudioSource> {
  const { head, stream } = await peekStream(part.body, AUDIO_SNIFF_BYTES);
  let format: AudioFormat;
  try {
    format = formatOf(head, 'file');
  } catch (err) {
    await stream.cancel().catch(() => {});
    throw err;
  }
  const meter = durationMeter(format);
  let bytes = 0;
  const counted = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      bytes += chunk.length;
      if (bytes > MAX_AUDIO_BYTES) controller.error(new TooLarge());
      else controller.enqueue(chunk);
    },
  });
  const key = `${accountPrefix('uploads', c.get('caller').accountId)}transcriptions/${crypto.randomUUID()}`;
  try {
    await streamIntoR2(c.env.MEDIA, key, stream.pipeThrough(counted).pipeThrough(meter.stream), { contentType: 'application/octet-stream' });
  } catch (err) {
    if (err instanceof TooLarge) throw new GatewayError('invalid_request', `The audio file is larger than ${MAX_AUDIO_BYTES} bytes (25 MB).`, { param: 'file' });
    throw err;
  }
  return { format, bytes, key, param: 'file', seconds: meter.seconds() ?? 0, spooled: true };
}

/**
 * `file_url`: the `public_url` of one of the caller's own uploads, stored and of an audio type
 * (`requireStoredUploads`); another account's upload is a 404.
 */
export async function uploadSource(c: Context<AppEnv>, url: string): Promise<AudioSource> {
  const base = publicBaseUrl(c);
  const prefix = `${base}/files/`;
  const key = url.startsWith(`${prefix}uploads/`) ? hostedKey(url.slice(prefix.length)) : null;
  if (key === null) throw new GatewayError('invalid_request', 'file_url must be the public_url of one of your uploads (POST /v1/uploads).', { param: 'file_url' });
  // x402's keyless pricing runs before any account exists: it has no uploads to name.
  const caller: Caller | undefined = c.get('caller');
  if (!caller) throw new GatewayError('invalid_request', 'A request without a key has no uploads: register (or pay with a key) and upload the audio first.', { param: 'file_url' });
  const notFound = () => new GatewayError('not_found', `No upload ${url} in this account.`, { param: 'file_url' });
  if (!key.startsWith(accountPrefix('uploads', caller.accountId))) throw notFound();
  // D35: a sub-key names only the uploads it reserved itself.
  const auth = await caller.account.authenticate(caller.keyHash);
  if (!auth.ok) throw holdFailureError(auth);
  const own = ownDataOf(auth);
  if (own !== undefined && (await uploadOfKey(database(c.env), key))?.keyId !== own) throw notFound();
  await requireStoredUploads(c.env, base, [url], 'file_url', 'audio');
  const [object, first] = await Promise.all([c.env.MEDIA.head(key), c.env.MEDIA.get(key, { range: { offset: 0, length: AUDIO_SNIFF_BYTES } })]);
  if (!object || !first) throw new GatewayError('invalid_request', `The upload ${url} is not hosted here (it may have expired).`, { param: 'file_url' });
  const format = formatOf(new Uint8Array(await first.arrayBuffer()), 'file_url');
  return { format, bytes: object.size, key, param: 'file_url', spooled: false };
}

/** Deletes a request's own copy of its audio (an upload stays the account's). */
export async function discard(env: Env, audio: AudioSource): Promise<void> {
  if (audio.spooled) await env.MEDIA.delete(audio.key).catch(() => {});
}
