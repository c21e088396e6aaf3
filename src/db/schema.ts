import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { ErrorCode } from '../errors';
import type { StoredVideoHandle } from '../providers/renders';

/**
 * D1 holds records and indexes, never the money: balances live in each account's Durable Object.
 * This row lets the sweep find unfunded, unclaimed accounts and lets operators list accounts.
 */
export const accounts = sqliteTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    createdAt: integer('created_at').notNull(),
    /** ms since epoch; null once the account is funded or claimed (it never expires then). */
    expiresAt: integer('expires_at'),
    fundedAt: integer('funded_at'),
    claimedAt: integer('claimed_at'),
    /** SHA-256 of the fund link's token (D22): the fund page finds its account by it. */
    fundTokenHash: text('fund_token_hash').unique(),
  },
  (t) => [index('accounts_expiry').on(t.expiresAt), index('accounts_created').on(t.createdAt, t.id)],
);

/** Per-IP daily counters for the registration limit and the welcome-credit allowance. */
export const ipDailyCounters = sqliteTable(
  'ip_daily_counters',
  {
    /** The limit key of the address (`src/client-ip.ts`): an IPv4 address, or an IPv6 /64. */
    ip: text('ip').notNull(),
    day: text('day').notNull(),
    registrations: integer('registrations').notNull().default(0),
    welcomeGrants: integer('welcome_grants').notNull().default(0),
    /** Funding sessions started from fund pages (card checkouts and USDC intents), D3's abuse limit. */
    fundingSessions: integer('funding_sessions').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.ip, t.day] }), index('ip_daily_counters_day').on(t.day)],
);

/** Crawl and extract jobs by account, so deleting an account finds its job Durable Objects. */
export const webJobs = sqliteTable(
  'web_jobs',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    kind: text('kind').$type<'crawl' | 'extract'>().notNull(),
    createdAt: integer('created_at').notNull(),
    /** D35: the key that started it (a sub-key polls only its own); null on rows from before. */
    keyId: text('key_id'),
  },
  (t) => [index('web_jobs_account').on(t.accountId), index('web_jobs_created').on(t.createdAt)],
);

/**
 * Completed image and video generations, for `GET /v1/generations`: what was asked and the R2
 * keys of the hosted outputs, listed newest first until the outputs expire (D10).
 */
export const generations = sqliteTable(
  'generations',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    kind: text('kind').$type<'image' | 'video'>().notNull(),
    model: text('model').notNull(),
    prompt: text('prompt').notNull(),
    /** JSON array of R2 keys under `outputs/<account_id>/`. */
    keys: text('keys', { mode: 'json' }).$type<string[]>().notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    /** D35: the key that paid for it (a sub-key lists only its own); null on rows from before. */
    keyId: text('key_id'),
  },
  (t) => [index('generations_account').on(t.accountId, t.createdAt, t.id), index('generations_expiry').on(t.expiresAt)],
);

/**
 * Media jobs (`POST /v1/images/jobs`, video jobs, and the sync image and speech renders recorded as
 * jobs so they finish without their client): the request, its hold and what became of it.
 * The money is in the account's Durable Object (the hold, its settlement or release); this row is
 * the job's state, moved by the queue consumer and rescued by the cron sweep.
 */
export const mediaJobs = sqliteTable(
  'media_jobs',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    kind: text('kind').$type<'image' | 'video' | 'speech'>().notNull(),
    model: text('model').notNull(),
    status: text('status').$type<'queued' | 'processing' | 'completed' | 'failed'>().notNull(),
    /** The validated request, JSON. */
    params: text('params', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    /** The gateway's public base at submission: links to its own files are read from R2. */
    base: text('base').notNull(),
    holdId: text('hold_id').notNull(),
    predictedMicros: integer('predicted_micros').notNull(),
    actualMicros: integer('actual_micros'),
    /** JSON array of R2 keys once completed. */
    keys: text('keys', { mode: 'json' }).$type<string[]>(),
    /** Where the upstream keeps the work (video jobs): its provider, id and status URLs, JSON (each video adapter reads its own back). */
    upstream: text('upstream', { mode: 'json' }).$type<StoredVideoHandle>(),
    error: text('error'),
    /** A failed job's envelope code (`invalid_request`, `provider_error`, `provider_unavailable`, `api_error`), beside `error`. */
    errorCode: text('error_code').$type<ErrorCode>(),
    /** The token of whoever renders the job now (`claimMediaRender`); null before the first claim. */
    claim: text('claim'),
    /** When that claim's lease ends (ms): past it, another delivery may take the render over. */
    claimedUntil: integer('claimed_until'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    /** D35: the key that submitted it (a sub-key polls only its own); null on rows from before. */
    keyId: text('key_id'),
  },
  (t) => [
    index('media_jobs_account').on(t.accountId),
    index('media_jobs_open').on(t.status, t.updatedAt),
    index('media_jobs_kind_open').on(t.kind, t.status, t.updatedAt),
  ],
);

/**
 * Uploads (`POST /v1/uploads`): each row is first a reservation whose `upload_url` carries a
 * random token (stored here hashed) or is a presigned R2 PUT, then, once its bytes are in R2 and
 * checked, the hosted file; listed until it expires (about 48 hours, D10). Also counts each
 * account's bytes per UTC day for the allowance.
 */
export const uploads = sqliteTable(
  'uploads',
  {
    key: text('key').primaryKey(),
    accountId: text('account_id').notNull(),
    /** SHA-256 of the upload URL's token. */
    tokenHash: text('token_hash').notNull().unique(),
    contentType: text('content_type').notNull(),
    bytes: integer('bytes').notNull(),
    /** UTC day of the reservation (`2026-11-24`), for the daily allowance. */
    day: text('day').notNull(),
    createdAt: integer('created_at').notNull(),
    /** The upload URL works until then. */
    putBy: integer('put_by').notNull(),
    /** Set when the PUT starts: a second PUT is refused. */
    putAt: integer('put_at'),
    /** When the file was first found in R2 with the declared size and type signature. */
    uploadedAt: integer('uploaded_at'),
    expiresAt: integer('expires_at').notNull(),
    /** The ETag of the object that was checked (migration 0012): another ETag means it was replaced, and is checked again. */
    etag: text('etag'),
    /** D35: the key that reserved it (a sub-key lists only its own); null on rows from before. */
    keyId: text('key_id'),
  },
  (t) => [
    index('uploads_account_day').on(t.accountId, t.day),
    index('uploads_account_listed').on(t.accountId, t.uploadedAt, t.key),
    index('uploads_expiry').on(t.expiresAt),
  ],
);

/**
 * USDC funding intents (`POST /agent/fund`): the exact amount (whole dollars plus a micro-USDC
 * tail) that identifies one account's deposit. Unique among open intents, so a transfer of exactly
 * that amount names its account; `paid` once a deposit matched it, `expired` after its hour.
 */
export const fundingIntents = sqliteTable(
  'funding_intents',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    amountUsd: integer('amount_usd').notNull(),
    /** micro-USDC (= micro-dollars, D17) to send. */
    amountMicros: integer('amount_micros').notNull(),
    status: text('status').$type<'open' | 'paid' | 'expired'>().notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    /** The deposit that paid it (`<tx hash>:<log index>`). */
    depositId: text('deposit_id'),
    /** D35: the sub-key that asked for it, whose own cap it counts under; null for the account's keys and the fund page. */
    subKeyId: text('sub_key_id'),
  },
  (t) => [
    uniqueIndex('funding_intents_open_amount').on(t.amountMicros).where(sql`status = 'open'`),
    index('funding_intents_account').on(t.accountId, t.createdAt),
    // The watcher matches a deposit to the intent of its amount open when its block was mined.
    index('funding_intents_amount').on(t.amountMicros, t.createdAt),
    index('funding_intents_expiry').on(t.expiresAt),
  ],
);

/**
 * Every USDC transfer to the deposit address the watcher has seen, once per (transaction, log):
 * `pending` until confirmed, then `credited` to the intent's account, or `unmatched` (no open
 * intent had its amount: the operator credits it by hand). A pending deposit whose block was
 * reorged away is deleted and read again from the new chain.
 */
export const deposits = sqliteTable(
  'deposits',
  {
    /** `<tx hash>:<log index>`, the credit's idempotency key. */
    id: text('id').primaryKey(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: integer('block_number').notNull(),
    blockHash: text('block_hash').notNull(),
    /** The block's timestamp in ms (null for deposits recorded before it was kept): the intent matched was open then. */
    blockTime: integer('block_time'),
    fromAddress: text('from_address').notNull(),
    /** micro-USDC as a decimal string: a transfer may exceed what a JS number holds exactly. */
    amount: text('amount').notNull(),
    /** `reversed`: credited, then a reorg took its transfer off the chain and the credit was debited back. */
    status: text('status').$type<'pending' | 'credited' | 'unmatched' | 'reversed'>().notNull(),
    intentId: text('intent_id'),
    accountId: text('account_id'),
    seenAt: integer('seen_at').notNull(),
    creditedAt: integer('credited_at'),
    /** For a deposit credited by hand: the operator's reason. */
    note: text('note'),
    /** Credits a reorg took back (`depositCreditKey`): a transfer that lands again is credited under a fresh key. */
    reversals: integer('reversals').notNull().default(0),
  },
  (t) => [
    index('deposits_status').on(t.status, t.blockNumber),
    index('deposits_account').on(t.accountId),
    // The operator finds accounts by a sender's wallet, whatever its checksum capitals.
    index('deposits_from').on(sql`lower(${t.fromAddress})`),
  ],
);

/**
 * Card payments through Stripe Checkout: one row per Checkout Session, made `open` when the fund
 * page starts it and `paid` when its webhook credits it. The unclaimed caps count open and paid
 * rows, so two payments started at once cannot pass the total between them.
 */
export const cardPayments = sqliteTable(
  'card_payments',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    amountMicros: integer('amount_micros').notNull(),
    /** `processing`: completed with a delayed method, paid or failed later; it counts against the caps until then. */
    status: text('status').$type<'open' | 'processing' | 'paid' | 'expired'>().notNull(),
    /** The Checkout Session (`cs_...`), once Stripe made it. */
    sessionId: text('session_id').unique(),
    createdAt: integer('created_at').notNull(),
    /** The session's own expiry: an unpaid payment stops counting against the caps after it. */
    expiresAt: integer('expires_at').notNull(),
    paidAt: integer('paid_at'),
  },
  (t) => [index('card_payments_account').on(t.accountId, t.status)],
);

/**
 * Claims of an agent's account by a human (RFC 8628 style): one row per `POST /agent/claim/init`.
 * The 6-digit user code is stored as SHA-256 of the claim id and the code. A newer init supersedes
 * the account's pending claim; a claim with 5 wrong codes is locked (`wrong_attempts`), and one
 * past `expires_at` is expired. `ticket_hash` names the browser that entered the right code; an
 * email-bound claim also needs the code mailed to `email` before the passkey step.
 */
export const claims = sqliteTable(
  'claims',
  {
    /** `clm_` and 20 base62 characters: the verification page's address. */
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    codeHash: text('code_hash').notNull(),
    status: text('status').$type<'pending' | 'approved' | 'superseded'>().notNull(),
    email: text('email'),
    /** The poll interval in seconds; grows by 5 at each `slow_down` (D13). */
    intervalSeconds: integer('interval_seconds').notNull(),
    lastPollAt: integer('last_poll_at'),
    /** Wrong codes entered (user code and emailed code); 5 locks the claim. */
    wrongAttempts: integer('wrong_attempts').notNull().default(0),
    /** SHA-256 of the cookie given to the browser that entered the right user code. */
    ticketHash: text('ticket_hash'),
    /** SHA-256 of the claim id and the code mailed to `email`. */
    emailCodeHash: text('email_code_hash'),
    emailSends: integer('email_sends').notNull().default(0),
    emailVerifiedAt: integer('email_verified_at'),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    approvedAt: integer('approved_at'),
  },
  (t) => [index('claims_account').on(t.accountId, t.createdAt), index('claims_email').on(t.email).where(sql`status = 'approved'`)],
);

/** Per IP and UTC hour: wrong codes entered on verification pages (D4: 10 an hour). */
export const ipHourlyCounters = sqliteTable(
  'ip_hourly_counters',
  {
    /** The limit key of the address (`src/client-ip.ts`): an IPv4 address, or an IPv6 /64. */
    ip: text('ip').notNull(),
    /** `2026-11-25T10` (UTC). */
    hour: text('hour').notNull(),
    wrongClaimCodes: integer('wrong_claim_codes').notNull().default(0),
    /** Sign-in challenges handed out (each a D1 row until used or swept): D3's abuse limit. */
    signInChallenges: integer('sign_in_challenges').notNull().default(0),
    /** Keyless x402 payments tried (each costs chain calls before it is known to be good). */
    x402Attempts: integer('x402_attempts').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.ip, t.hour] }), index('ip_hourly_counters_hour').on(t.hour)],
);

/** A claimed account's passkeys (WebAuthn credentials); sign-in finds the account by credential id. */
export const passkeys = sqliteTable(
  'passkeys',
  {
    /** The credential id, base64url. */
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter (0 for authenticators that keep none). */
    counter: integer('counter').notNull(),
    /** JSON array of transports (`internal`, `usb`, `hybrid`, ...), as the browser reported them. */
    transports: text('transports', { mode: 'json' }).$type<string[]>(),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at'),
    /**
     * The claim that registered it. Stored before the account's Durable Object approves that claim,
     * it signs in only while that claim's human holds the account (null: never).
     */
    claimId: text('claim_id'),
  },
  (t) => [index('passkeys_account').on(t.accountId)],
);

/**
 * WebAuthn challenges handed to a browser, each used once: `register` for a claim's passkey
 * (bound to the claim), `signin` for signing in again.
 */
export const passkeyChallenges = sqliteTable(
  'passkey_challenges',
  {
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose').$type<'register' | 'signin'>().notNull(),
    claimId: text('claim_id'),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('passkey_challenges_expiry').on(t.expiresAt)],
);

/** A human's signed-in session: the cookie's value is random and kept here only as its SHA-256. */
export const humanSessions = sqliteTable(
  'human_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: text('account_id').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    revokedAt: integer('revoked_at'),
  },
  (t) => [index('human_sessions_account').on(t.accountId), index('human_sessions_expiry').on(t.expiresAt)],
);

/** Welcome credit granted per UTC day across all callers, held under `WELCOME_CREDITS_DAILY_USD`. */
export const welcomeCreditDays = sqliteTable('welcome_credit_days', {
  /** `26-11-26` (UTC), as `ip_daily_counters.day`. */
  day: text('day').primaryKey(),
  grantedMicros: integer('granted_micros').notNull().default(0),
  grants: integer('grants').notNull().default(0),
});

/** `POST /agent/fund` and the fund page's USDC form, per account and UTC hour (their rate limit). */
export const fundingRequestCounters = sqliteTable(
  'funding_request_counters',
  {
    accountId: text('account_id').notNull(),
    /** `2026-11-25T10` (UTC). */
    hour: text('hour').notNull(),
    requests: integer('requests').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.hour] }), index('funding_request_counters_hour').on(t.hour)],
);

/**
 * Claim mails sent, per recipient (SHA-256 of the lowercased address): at most 3 in any hour,
 * across claims and accounts. Rows older than an hour are swept.
 */
export const claimMailSends = sqliteTable(
  'claim_mail_sends',
  {
    addressHash: text('address_hash').notNull(),
    sentAt: integer('sent_at').notNull(),
  },
  (t) => [index('claim_mail_sends_address').on(t.addressHash, t.sentAt)],
);

/** The operator's resets of an account's human (`POST /admin/accounts/{id}/human/reset`); `id` is the idempotency key. */
export const humanResets = sqliteTable(
  'human_resets',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    reason: text('reason').notNull(),
    passkeysRemoved: integer('passkeys_removed').notNull(),
    sessionsRevoked: integer('sessions_revoked').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('human_resets_account').on(t.accountId, t.createdAt)],
);
