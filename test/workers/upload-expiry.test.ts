import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { database } from '../../src/db';
import { markUploaded, reserveUpload, uploadsPage } from '../../src/db/uploads';
import { sweepExpiredUploads } from '../../src/cron/upload-expiry';
import { UPLOAD_RETENTION_MS } from '../../src/media/uploads';

/** Uploads live about 48 hours (D10): the cron deletes the object, then the row. */
describe('upload expiry', () => {
  it('deletes expired uploads and their objects, and keeps the rest', async () => {
    const accountId = crypto.randomUUID();
    const now = Date.now();
    const row = (key: string, createdAt: number) => ({
      key: `uploads/${accountId}/${key}`,
      accountId,
      tokenHash: crypto.randomUUID(),
      contentType: 'image/png',
      bytes: 3,
      day: '2026-11-24',
      createdAt,
      putBy: createdAt + 600_000,
      putAt: createdAt,
      uploadedAt: createdAt,
      expiresAt: createdAt + UPLOAD_RETENTION_MS,
    });
    const old = row('old.png', now - UPLOAD_RETENTION_MS - 1_000);
    const fresh = row('fresh.png', now - 1_000);
    for (const upload of [old, fresh]) {
      expect(await reserveUpload(database(env), upload, 1_000)).toBe(true);
      await env.MEDIA.put(upload.key, new Uint8Array([1, 2, 3]));
      await markUploaded(database(env), upload.key, upload.uploadedAt);
    }
    expect(await sweepExpiredUploads(env, now)).toBe(1);
    expect(await env.MEDIA.head(old.key)).toBeNull();
    expect(await env.MEDIA.head(fresh.key)).not.toBeNull();
    expect((await uploadsPage(database(env), { accountId, limit: 10, now })).map((upload) => upload.key)).toEqual([fresh.key]);
  });
});
