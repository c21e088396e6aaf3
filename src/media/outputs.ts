import { randomBase62 } from '../accounts/credentials';
import { accountPrefix } from './keys';

/** How long generated outputs stay hosted unless `OUTPUT_RETENTION_DAYS` says otherwise (D10). */
export const DEFAULT_OUTPUT_RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export function outputRetentionMs(env: Env): number {
  const days = Number(env.OUTPUT_RETENTION_DAYS);
  return (Number.isFinite(days) && days > 0 ? days : DEFAULT_OUTPUT_RETENTION_DAYS) * DAY_MS;
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'video/mp4': 'mp4', 'audio/mpeg': 'mp3' };

/**
 * Hosts one generated output under the account's `outputs/` prefix with an unguessable name, and
 * returns its key. The bytes are stored exactly as the upstream produced them.
 */
export async function hostOutput(bucket: R2Bucket, accountId: string, body: Uint8Array, contentType: string): Promise<string> {
  const key = `${accountPrefix('outputs', accountId)}${randomBase62(32)}.${EXTENSIONS[contentType] ?? 'bin'}`;
  await bucket.put(key, body, { httpMetadata: { contentType } });
  return key;
}

export function fileUrl(base: string, key: string): string {
  return `${base}/files/${key}`;
}
