/**
 * API keys and claim tokens (D12). Both carry the account id in their first 22 characters
 * (the UUID in base62), so a request finds its account's Durable Object without a database
 * read; the rest is a random secret. Only SHA-256 hashes are ever stored.
 */

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ACCOUNT_PART = 22; // 62^22 > 2^128
const KEY_PREFIX = 'ak-';
const KEY_SECRET = 23; // 3 + 22 + 23 = 48 characters, about 137 random bits
const CLAIM_PREFIX = 'act_';
const CLAIM_SECRET = 32;

const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${ACCOUNT_PART + KEY_SECRET}}$`);
const CLAIM_PATTERN = new RegExp(`^${CLAIM_PREFIX}[0-9A-Za-z]{${ACCOUNT_PART + CLAIM_SECRET}}$`);

export function newApiKey(accountId: string): string {
  return KEY_PREFIX + encodeAccountId(accountId) + randomBase62(KEY_SECRET);
}

export function newClaimToken(accountId: string): string {
  return CLAIM_PREFIX + encodeAccountId(accountId) + randomBase62(CLAIM_SECRET);
}

/**
 * A key's id: `key_`, the account id in base62 (22 characters) and 12 random characters. The
 * operator's search finds the account of a key id without any lookup (keys made before this
 * format, `key_` and 20 random characters, are found by their account id only).
 */
const KEY_ID_PATTERN = new RegExp(`^key_([0-9A-Za-z]{${ACCOUNT_PART}})[0-9A-Za-z]{12}$`);
export function newKeyId(accountId: string): string {
  // Account ids are UUIDs; anything else (a test harness's) gets a key id that names no account.
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(accountId)) return `key_${randomBase62(20)}`;
  return `key_${encodeAccountId(accountId)}${randomBase62(12)}`;
}

/** The account a key id names; null for anything else (and for keys of the older, random format). */
export function accountIdOfKeyId(keyId: string): string | null {
  const part = KEY_ID_PATTERN.exec(keyId)?.[1];
  return part ? decodeAccountId(part) : null;
}

/**
 * D29: an organization's invite code, `inv-`, the organization id in base62 (22 characters) and a
 * 32-character secret (about 190 bits): it names the organization's Durable Object the way a key
 * names its account, so a join needs no database read. Stored only as its SHA-256.
 */
const INVITE_PREFIX = 'inv-';
const INVITE_SECRET = 32;
const INVITE_PATTERN = new RegExp(`^${INVITE_PREFIX}[0-9A-Za-z]{${ACCOUNT_PART + INVITE_SECRET}}$`);
export function newInviteCode(organizationId: string): string {
  return INVITE_PREFIX + encodeAccountId(organizationId) + randomBase62(INVITE_SECRET);
}
export function organizationIdOfInvite(code: string): string | null {
  return INVITE_PATTERN.test(code) ? decodeAccountId(code.slice(INVITE_PREFIX.length, INVITE_PREFIX.length + ACCOUNT_PART)) : null;
}

/** A fund link's token (D22): 32 random base62 characters (about 190 bits), nothing of the account in it. */
export const FUND_TOKEN_PATTERN = /^[A-Za-z0-9]{32}$/;
export function newFundToken(): string {
  return randomBase62(32);
}

/** The account a well-formed key belongs to, or null for anything that is not one of our keys. */
export function accountIdOfApiKey(key: string): string | null {
  return KEY_PATTERN.test(key) ? decodeAccountId(key.slice(KEY_PREFIX.length, KEY_PREFIX.length + ACCOUNT_PART)) : null;
}

export function accountIdOfClaimToken(token: string): string | null {
  return CLAIM_PATTERN.test(token)
    ? decodeAccountId(token.slice(CLAIM_PREFIX.length, CLAIM_PREFIX.length + ACCOUNT_PART))
    : null;
}

/** Lowercase hex SHA-256, the stored form of keys and claim tokens. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Constant-time equality of two hex hashes of the same length. */
export function hashesEqual(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  return left.byteLength === right.byteLength && crypto.subtle.timingSafeEqual(left, right);
}

/** Unbiased random base62 text (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** An account id (a UUID) as 22 base62 characters, the form keys, invites and organization holds carry. */
export function encodeAccountId(uuid: string): string {
  let value = BigInt(`0x${uuid.replaceAll('-', '')}`);
  let out = '';
  for (let i = 0; i < ACCOUNT_PART; i++) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

export function decodeAccountId(text: string): string | null {
  let value = 0n;
  for (const char of text) value = value * 62n + BigInt(ALPHABET.indexOf(char));
  if (value >= 1n << 128n) return null;
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
