import { MICROS_PER_USD } from '../money';

const MB = 1024 * 1024;

/** Accepted types and their size caps (spec "Limits"). */
export const UPLOAD_TYPES = {
  'image/png': 20 * MB,
  'image/jpeg': 20 * MB,
  'image/webp': 20 * MB,
  'image/gif': 20 * MB,
  'video/mp4': 100 * MB,
  'video/quicktime': 100 * MB,
  'audio/mpeg': 25 * MB,
  'audio/wav': 25 * MB,
  'audio/mp4': 25 * MB,
} as const;
export type UploadType = keyof typeof UPLOAD_TYPES;
export const UPLOAD_TYPE_NAMES = Object.keys(UPLOAD_TYPES) as [UploadType, ...UploadType[]];

export function isUploadType(type: string): type is UploadType {
  return Object.hasOwn(UPLOAD_TYPES, type);
}

/** The signed URL's life (spec: 600 seconds) and the file's (about 48 hours, D10). */
export const UPLOAD_URL_TTL_MS = 600_000;
export const UPLOAD_RETENTION_MS = 48 * 60 * 60 * 1000;

const BASE_ALLOWANCE = 500 * MB;
const ALLOWANCE_PER_USD = 100 * MB;
const MAX_ALLOWANCE = 10 * 1024 * MB;

/**
 * Bytes an account may upload per UTC day: 500 MB, plus 100 MB per whole dollar of balance, at
 * most 10 GB. Uploading is free, so the allowance keeps an unfunded account from turning the
 * gateway into free storage while a working account never meets it (docs/agents/uploads.md).
 */
export function dailyUploadAllowance(balanceMicros: number): number {
  const dollars = Math.max(0, Math.floor(balanceMicros / MICROS_PER_USD));
  return Math.min(MAX_ALLOWANCE, BASE_ALLOWANCE + dollars * ALLOWANCE_PER_USD);
}

export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** Seconds until the next UTC day, when the allowance starts again. */
export function secondsToNextUtcDay(now: number): number {
  const next = new Date(now);
  next.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((next.getTime() - now) / 1000));
}

export function formatMegabytes(bytes: number): string {
  return `${Math.round(bytes / MB)} MB`;
}
