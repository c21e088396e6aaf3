import type { Context } from 'hono';
import { ownDataOf } from '../../accounts/data-scope';
import { holdFailureError } from '../../accounts/failures';
import { database } from '../../db';
import { uploadOfKey } from '../../db/uploads';
import type { AppEnv, Caller } from '../../env';
import { GatewayError, validationError } from '../../errors';
import { MalformedMultipart, multipartBoundary, MultipartReader } from '../../http/multipart-reader';
import { AUDIO_SNIFF_BYTES, type AudioFormat } from '../../media/audio-duration';
import { accountPrefix, hostedKey } from '../../media/keys';
import { R2Spool } from '../../media/r2-spool';
import { requireStoredUploads } from '../../media/upload-check';
import { publicBaseUrl } from '../../urls';
import { TranscriptionOptions, type TranscriptionInput } from './request';
import { bodyCopy, formatOf, measureFile, type MeasuredFile } from './spool';

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
  /** Where the audio begins in the object (a copy of a multipart body holds the parts around it). */
  offset: number;
  /** Measured already (a request's own file is read as it is stored), else undefined. */
  seconds?: number;
  /** The object is the request's own copy, deleted once it is answered. */
  spooled: boolean;
}

/**
 * Reads a multipart body as it streams: text fields into the options, the `file` part through its
 * duration reader, and the bytes into R2 (a spooled copy under the account's uploads, never held
 * whole: the whole body by one `put` when its length is known, else the file part by part), so the
 * fields may come in any order (the `openai` SDK sends `file` before `model`).
 */
export async function readMultipart(c: Context<AppEnv>): Promise<{ input: TranscriptionInput; audio: AudioSource }> {
  const boundary = multipartBoundary(c.req.header('content-type'));
  if (!boundary || !c.req.raw.body) throw new GatewayError('invalid_request', 'The multipart body has no boundary.', { param: 'file' });
  const key = `${accountPrefix('uploads', c.get('caller').accountId)}transcriptions/${crypto.randomUUID()}`;
  const copy = bodyCopy(c.env.MEDIA, key, c.req.header('content-length'));
  const reader = new MultipartReader(c.req.raw.body, boundary, copy?.write);
  const fields: Record<string, string> = {};
  let file: MeasuredFile | undefined;
  try {
    for (let part = await reader.next(); part; part = await reader.next()) {
      if (part.name === 'file') {
        if (file) throw new GatewayError('invalid_request', 'Give one file.', { param: 'file' });
        if (copy) file = await measureFile(part, undefined);
        else {
          const spool = new R2Spool(c.env.MEDIA, key, 'application/octet-stream');
          file = await measureFile(part, spool).catch(async (err: unknown) => {
            await spool.abort();
            throw err;
          });
          file = { ...file, offset: 0, bytes: await spool.finish() };
        }
      } else if (FIELDS.has(part.name)) {
        fields[part.name] = await MultipartReader.text(part, MAX_FIELD_BYTES);
      } else {
        throw new GatewayError('invalid_request', `${part.name} is not a field of this route.`, { param: part.name });
      }
    }
    await copy?.finish();
    const parsed = TranscriptionOptions.safeParse(fields);
    if (!parsed.success) throw validationError(parsed.error);
    if (file && fields.file_url !== undefined) throw new GatewayError('invalid_request', 'Give file or file_url, not both.', { param: 'file_url' });
    if (file) return { input: parsed.data, audio: { ...file, key, param: 'file', spooled: true } };
    // No file part: the copy holds only fields.
    if (copy) c.executionCtx.waitUntil(c.env.MEDIA.delete(key).catch(() => {}));
    if (fields.file_url === undefined) throw new GatewayError('invalid_request', 'Give the audio as file (or file_url).', { param: 'file' });
    return { input: parsed.data, audio: await uploadSource(c, fields.file_url) };
  } catch (err) {
    await copy?.abort();
    await c.env.MEDIA.delete(key).catch(() => {});
    if (err instanceof MalformedMultipart) throw new GatewayError('invalid_request', `The multipart body is malformed: ${err.message}.`, { param: 'file' });
    throw err;
  }
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
  return { format, bytes: object.size, offset: 0, key, param: 'file_url', spooled: false };
}

/** Deletes a request's own copy of its audio (an upload stays the account's). */
export async function discard(env: Env, audio: AudioSource): Promise<void> {
  if (audio.spooled) await env.MEDIA.delete(audio.key).catch(() => {});
}
