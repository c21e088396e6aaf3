import { database, type Database } from '../db';
import { markChecked, markRefused, markReplaced, pendingUploads, uploadOfKey, type UploadRow } from '../db/uploads';
import { GatewayError } from '../errors';
import { hostedKey } from './keys';
import { matchesDeclaredType, SNIFF_BYTES } from './sniff';

/**
 * A presigned PUT goes straight to R2, so the gateway learns of an upload only by looking: an
 * upload is "stored" from the first time its object is found in R2 with the declared size, type
 * and first bytes (`src/media/sniff.ts`), and that object's ETag is pinned. A presigned URL is
 * signed for `If-None-Match: *`, so R2 refuses a PUT while the key holds an object
 * (`src/media/presign.ts`); should an object still change under its pinned ETag (a URL signed
 * before that, an operator's write), it is never taken: it is deleted and the upload ends
 * (`replaced`). An object that fails its first check is deleted and the row is pending again,
 * for a right PUT within the URL's life.
 */
export type UploadCheck = { ok: true; etag: string } | { ok: false; reason: 'not_uploaded' | 'gone' | 'replaced' } | { ok: false; reason: 'refused'; detail: string };

export async function checkUpload(bucket: R2Bucket, db: Database, row: UploadRow, now: number): Promise<UploadCheck> {
  const head = await bucket.head(row.key);
  if (!head) return { ok: false, reason: row.uploadedAt === null ? 'not_uploaded' : 'gone' };
  if (row.uploadedAt !== null && row.etag === head.etag) return { ok: true, etag: head.etag };
  if (row.uploadedAt !== null && row.etag !== null) return replaced(bucket, db, row.key, now);
  const detail = head.size !== row.bytes ? `is ${head.size} bytes, not the ${row.bytes} declared` : await contentProblem(bucket, row, head);
  if (detail === 'gone') return { ok: false, reason: row.uploadedAt === null ? 'not_uploaded' : 'gone' };
  if (detail !== null) {
    // A check that pinned a version meanwhile keeps it: what this one saw was that version's replacement, or the refused bytes are gone.
    if (!(await markRefused(db, row.key))) return (await uploadOfKey(db, row.key))?.etag === head.etag ? { ok: false, reason: 'refused', detail } : replaced(bucket, db, row.key, now);
    await bucket.delete(row.key);
    return { ok: false, reason: 'refused', detail };
  }
  if (!(await markChecked(db, row.key, head.etag, now))) {
    // Another check pinned a version meanwhile: this object is that one, or its replacement.
    const pinned = await uploadOfKey(db, row.key);
    if (pinned?.etag !== head.etag) return replaced(bucket, db, row.key, now);
  }
  return { ok: true, etag: head.etag };
}

/** The pinned object was replaced: the replacement is deleted and the upload ends (a later PUT to the URL is never served). */
export async function replaced(bucket: R2Bucket, db: Database, key: string, now: number): Promise<UploadCheck> {
  await markReplaced(db, key, now);
  await bucket.delete(key);
  return { ok: false, reason: 'replaced' };
}

/** What is wrong with the stored type or first bytes, or null; 'gone' when the object vanished meanwhile. */
async function contentProblem(bucket: R2Bucket, row: UploadRow, head: R2Object): Promise<string | null | 'gone'> {
  const stored = head.httpMetadata?.contentType?.split(';')[0]?.trim().toLowerCase();
  if (stored !== row.contentType) return `is stored as ${stored ?? 'no type'}, not the ${row.contentType} declared`;
  const first = await bucket.get(row.key, { range: { offset: 0, length: Math.min(SNIFF_BYTES, row.bytes) }, onlyIf: { etagMatches: head.etag } });
  if (!first) return 'gone';
  if (!('body' in first)) return null; // replaced between the two reads: the next use checks the new object
  if (!matchesDeclaredType(row.contentType, new Uint8Array(await first.arrayBuffer()))) return `does not start as a ${row.contentType} file does`;
  return null;
}

/** How long after its URL expired a reservation is still looked for: a PUT that started in time may end later. */
const PUT_GRACE_MS = 60 * 60 * 1000;
/** Reservations looked for per listing (each costs an R2 `head`). */
const PENDING_CHECKS = 10;

/** Before `GET /v1/uploads`: checks the account's newest reservations not yet seen in R2, so a finished PUT is listed. */
export async function checkPendingUploads(env: Env, accountId: string, now: number): Promise<void> {
  const db = database(env);
  const pending = await pendingUploads(db, { accountId, since: now - PUT_GRACE_MS, now, limit: PENDING_CHECKS });
  await Promise.all(pending.map((row) => checkUpload(env.MEDIA, db, row, now)));
}

/**
 * Before a generation takes its inputs: every link to one of our uploads must name a stored
 * upload (checked now if it never was, or if its object changed), of the `kind` its field takes
 * when one is given (an `audio/mpeg` upload as `video_url` is refused), else a 400 naming `param`.
 * A link to one of our outputs, where a kind is given, must name a hosted output of that kind.
 * Links to other hosts are left to the render's own checks.
 */
export async function requireStoredUploads(env: Env, base: string, urls: string[], param: string, kind?: MediaKind): Promise<void> {
  const prefix = `${base}/files/`;
  const db = database(env);
  const now = Date.now();
  await Promise.all(
    urls.map(async (url) => {
      if (kind && url.startsWith(`${prefix}outputs/`)) return requireOutputOfKind(env.MEDIA, url, hostedKey(url.slice(prefix.length)), param, kind);
      if (!url.startsWith(`${prefix}uploads/`)) return;
      const key = hostedKey(url.slice(prefix.length));
      const row = key === null ? undefined : await uploadOfKey(db, key);
      const refused = (why: string) => new GatewayError('invalid_request', `The upload ${url} ${why}.`, { param });
      if (!row || row.expiresAt <= now) throw refused('is not hosted here (it may have expired)');
      if (kind && !row.contentType.startsWith(`${kind}/`)) throw refused(`is ${row.contentType}, and ${param} takes ${aFile(kind)}`);
      const check = await checkUpload(env.MEDIA, db, row, now);
      if (check.ok) return;
      if (check.reason === 'refused') throw refused(`${check.detail}, so it was deleted; PUT the declared file to its upload_url again, or ask POST /v1/uploads for a new one`);
      if (check.reason === 'replaced') throw refused('was replaced after it was stored, so it was deleted; ask POST /v1/uploads for a new one');
      throw refused(check.reason === 'not_uploaded' ? 'has not been uploaded yet: PUT its bytes to its upload_url first' : 'is not hosted here (it may have expired)');
    }),
  );
}

type MediaKind = 'image' | 'video' | 'audio';
const aFile = (kind: MediaKind) => `${kind === 'audio' ? 'an audio' : `a ${kind}`} file`;

/** A gateway output given as an input of `kind`: hosted (not expired) and stored as that kind, else a 400 naming `param`. */
async function requireOutputOfKind(bucket: R2Bucket, url: string, key: string | null, param: string, kind: MediaKind): Promise<void> {
  const head = key === null ? null : await bucket.head(key);
  const refused = (why: string) => new GatewayError('invalid_request', `The output ${url} ${why}.`, { param });
  if (!head) throw refused('is not hosted here (it may have expired)');
  const stored = head.httpMetadata?.contentType?.split(';')[0]?.trim().toLowerCase() ?? 'of no type';
  if (!stored.startsWith(`${kind}/`)) throw refused(`is ${stored}, and ${param} takes ${aFile(kind)}`);
}
