import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { randomBase62, sha256Hex } from '../../accounts/credentials';
import { ownDataOf } from '../../accounts/data-scope';
import { holdFailureError } from '../../accounts/failures';
import { database } from '../../db';
import { claimUpload, markUploaded, reserveUpload, uploadOfToken, uploadsPage } from '../../db/uploads';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { accountPrefix } from '../../media/keys';
import { fileUrl } from '../../media/outputs';
import { presignedPutHeaders, presignPut, r2S3Config } from '../../media/presign';
import { matchesDeclaredType, peekStream, SNIFF_BYTES } from '../../media/sniff';
import { streamIntoR2 } from '../../media/stream-copy';
import { checkPendingUploads } from '../../media/upload-check';
import {
  dailyUploadAllowance,
  formatMegabytes,
  secondsToNextUtcDay,
  UPLOAD_RETENTION_MS,
  UPLOAD_TYPES,
  UPLOAD_URL_TTL_MS,
  utcDay,
  type UploadType,
} from '../../media/uploads';
import { publicBaseUrl } from '../../urls';
import { decodeCursor, encodeCursor } from '../cursor';
import type { createUpload, listUploads } from './uploads.routes';

const EXTENSIONS: Record<UploadType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/mp4': 'm4a',
};

/**
 * `POST /v1/uploads`: reserves a file of exactly `content_length` bytes against the day's
 * allowance (the declared size counts now, whether or not it is ever PUT) and answers an
 * `upload_url`: with R2's S3 credentials configured, a presigned R2 PUT bound to the type and
 * size (`src/media/presign.ts`), so the bytes never pass the Worker; otherwise the Worker's own
 * one-time `/uploads/<token>`, whose random token is the capability (stored hashed). Free, but
 * only for an account with a positive balance.
 */
export const createUploadHandler: RouteHandler<typeof createUpload, AppEnv> = async (c) => {
  const { content_type: contentType, content_length: bytes } = c.req.valid('json');
  const cap = UPLOAD_TYPES[contentType];
  if (bytes > cap) throw new GatewayError('invalid_request', `A ${contentType} upload is at most ${formatMegabytes(cap)} (${cap} bytes).`, { param: 'content_length' });
  const caller = c.get('caller');
  const found = await caller.account.accountForKey(caller.keyHash, 'uploads');
  if (!found.ok) throw holdFailureError(found);
  const { balanceMicros } = found.account;
  if (balanceMicros <= 0) {
    const funding = { fundToken: found.account.fundToken, availableMicros: Math.max(0, balanceMicros), requiredMicros: 1 };
    throw new GatewayError('insufficient_credits', 'Uploads are free but need a positive balance; fund the account first.', { funding });
  }

  const now = Date.now();
  const token = randomBase62(40);
  const key = `${accountPrefix('uploads', found.account.accountId)}${randomBase62(32)}.${EXTENSIONS[contentType]}`;
  const allowance = dailyUploadAllowance(balanceMicros);
  const reserved = await reserveUpload(
    database(c.env),
    { key, accountId: found.account.accountId, keyId: found.keyId, tokenHash: await sha256Hex(token), contentType, bytes, day: utcDay(now), createdAt: now, putBy: now + UPLOAD_URL_TTL_MS, putAt: null, uploadedAt: null, expiresAt: now + UPLOAD_RETENTION_MS },
    allowance,
  );
  if (!reserved) {
    throw new GatewayError('upload_allowance_exceeded', `This upload would pass the account's daily upload allowance of ${formatMegabytes(allowance)} (500 MB plus 100 MB per dollar of balance); it renews at 00:00 UTC.`, {
      retryAfter: secondsToNextUtcDay(now),
    });
  }
  const base = publicBaseUrl(c);
  const s3 = r2S3Config(c.env);
  const expiresIn = UPLOAD_URL_TTL_MS / 1000;
  const uploadUrl = s3 ? await presignPut(s3, { key, contentType, bytes, expiresInSeconds: expiresIn }, now) : `${base}/uploads/${token}`;
  return c.json(
    {
      upload_url: uploadUrl,
      // What the PUT must carry besides Content-Length; the presigned URL is signed for each of them.
      upload_headers: s3 ? presignedPutHeaders(contentType) : { 'Content-Type': contentType },
      public_url: fileUrl(base, key),
      key,
      expires_in: expiresIn,
      note: s3
        ? `PUT exactly ${bytes} bytes with Content-Length ${bytes} and the upload_headers (Content-Type ${contentType}, If-None-Match *) to upload_url within ${expiresIn} seconds (the URL is signed for all three; anything else is refused, and a second PUT once the file is stored is refused with 412). The file is deleted about 48 hours later; public_url works as image_url, image_urls or video_url meanwhile.`
        : `PUT exactly ${bytes} bytes with the upload_headers (Content-Type ${contentType}) to upload_url within ${expiresIn} seconds; it takes one PUT. The file is deleted about 48 hours later; public_url works as image_url, image_urls or video_url meanwhile.`,
    },
    200,
  );
};

/**
 * `PUT /uploads/<token>`: the one PUT of a reservation. The body streams into R2 through a
 * `FixedLengthStream` of the declared size (`streamIntoR2`), so no upload is held in memory and
 * a body of another length stores nothing.
 */
export async function putUpload(c: Context<AppEnv>): Promise<Response> {
  const token = c.req.param('token') ?? '';
  const db = database(c.env);
  const tokenHash = await sha256Hex(token);
  const now = Date.now();
  const reservation = /^[A-Za-z0-9]{40}$/.test(token) ? await uploadOfToken(db, tokenHash) : undefined;
  if (!reservation) throw new GatewayError('not_found', 'No such upload URL.');
  if (reservation.putAt !== null) throw new GatewayError('invalid_request', 'This upload URL has been used; ask POST /v1/uploads for another.');
  if (reservation.putBy <= now) throw new GatewayError('invalid_request', 'This upload URL has expired; ask POST /v1/uploads for another.');
  const type = c.req.header('Content-Type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== reservation.contentType) throw new GatewayError('invalid_request', `Content-Type must be ${reservation.contentType}, as declared.`, { param: 'Content-Type' });
  const length = c.req.header('Content-Length');
  if (length !== String(reservation.bytes)) throw new GatewayError('invalid_request', `Content-Length must be ${reservation.bytes}, as declared.`, { param: 'Content-Length' });
  if (!c.req.raw.body) throw new GatewayError('invalid_request', 'The upload has no body.');
  const { head, stream: body } = await peekStream(c.req.raw.body, SNIFF_BYTES);
  if (!matchesDeclaredType(reservation.contentType, head)) {
    await body.cancel();
    throw new GatewayError('invalid_request', `The body does not start as a ${reservation.contentType} file does; nothing was stored.`, { param: 'body' });
  }
  if (!(await claimUpload(db, tokenHash, now))) throw new GatewayError('invalid_request', 'This upload URL has been used or has expired.');

  try {
    await streamIntoR2(c.env.MEDIA, reservation.key, body, { contentType: reservation.contentType, length: reservation.bytes });
  } catch {
    await c.env.MEDIA.delete(reservation.key);
    throw new GatewayError('invalid_request', `The body was not exactly ${reservation.bytes} bytes; nothing was stored.`);
  }
  // The version `/files` serves: nothing else can write this key (no presigned URL was given for it).
  const stored = await c.env.MEDIA.head(reservation.key);
  await markUploaded(db, reservation.key, Date.now(), stored?.etag ?? null);
  return c.json({ key: reservation.key, bytes: reservation.bytes, public_url: fileUrl(publicBaseUrl(c), reservation.key) }, 200);
}

/** `GET /v1/uploads` (D9): this account's hosted uploads (stored and checked), newest first; a sub-key's own only (D35). */
export const listUploadsHandler: RouteHandler<typeof listUploads, AppEnv> = async (c) => {
  const { limit, cursor } = c.req.valid('query');
  const caller = c.get('caller');
  const auth = await caller.account.authenticate(caller.keyHash);
  if (!auth.ok) throw holdFailureError(auth);
  // A presigned PUT is seen only by looking in R2: the newest pending reservations are checked first.
  if (!cursor) await checkPendingUploads(c.env, auth.accountId, Date.now());
  const after = cursor ? decodeCursor(cursor, /^uploads\/[0-9a-f-]{36}\/[A-Za-z0-9]{32}\.[a-z0-9]{2,4}$/) : undefined;
  const rows = await uploadsPage(database(c.env), { accountId: auth.accountId, keyId: ownDataOf(auth), limit, cursor: after && { uploadedAt: after.time, key: after.id }, now: Date.now() });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const base = publicBaseUrl(c);
  return c.json(
    {
      data: page.map((row) => ({ url: fileUrl(base, row.key), key: row.key, bytes: row.bytes, content_type: row.contentType, uploaded_at: new Date(row.uploadedAt!).toISOString() })),
      next_cursor: rows.length > limit && last ? encodeCursor(last.uploadedAt!, last.key) : null,
    },
    200,
  );
};
