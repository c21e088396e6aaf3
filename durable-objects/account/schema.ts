import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** The classes of routes a key may be limited to (D27 `allowed_routes`); free reads belong to none. */
export const ROUTE_CLASSES = ['chat', 'images', 'videos', 'speech', 'transcription', 'web', 'uploads', 'embeddings'] as const;
export type RouteClass = (typeof ROUTE_CLASSES)[number];

/** One row: the account this Durable Object serializes. */
export const account = sqliteTable('account', {
  id: text('id').primaryKey(),
  createdAt: integer('created_at').notNull(),
  balanceMicros: integer('balance_micros').notNull().default(0),
  claimTokenHash: text('claim_token_hash').notNull(),
  claimedAt: integer('claimed_at'),
  fundedAt: integer('funded_at'),
  /** Deleted by the sweep after this instant unless funded or claimed (ms since epoch). */
  expiresAt: integer('expires_at'),
  /** Card funding received while unclaimed, for the spec's unclaimed cap. */
  cardFundedMicros: integer('card_funded_micros').notNull().default(0),
  /** The capability in `fund_url` (D22): shown again on every read, so kept as is; D1 indexes its hash. */
  fundToken: text('fund_token'),
  /** D28: set while the account is suspended (its keys get 403 `account_suspended`; funding still works). */
  suspendedAt: integer('suspended_at'),
  suspendedReason: text('suspended_reason'),
  /** D29: `organization` for an organization (an account members spend from; no key of its own), else `account`. */
  kind: text('kind').$type<AccountKind>().notNull().default('account'),
  /** D29: an organization's name. */
  name: text('name'),
  /** D29: the organization this account is a member of (pending or active there); null otherwise. */
  organizationId: text('organization_id'),
  /** D29: the claimed account whose human made this organization in the dashboard (null for the operator's). */
  ownerAccountId: text('owner_account_id'),
});

export type AccountKind = 'account' | 'organization';

export const apiKeys = sqliteTable('api_keys', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  hash: text('hash').notNull().unique(),
  /** `ak-…last4`, enough for a person to tell keys apart. */
  hint: text('hint').notNull(),
  createdAt: integer('created_at').notNull(),
  revokedAt: integer('revoked_at'),
  expiresAt: integer('expires_at'),
  dailyLimitMicros: integer('daily_limit_micros'),
  monthlyLimitMicros: integer('monthly_limit_micros'),
  totalLimitMicros: integer('total_limit_micros'),
  /** JSON array of model slugs; null allows every model. */
  allowedModels: text('allowed_models', { mode: 'json' }).$type<string[]>(),
  /** D27: JSON array of route classes (`chat`, `web`, ...); null allows every route. */
  allowedRoutes: text('allowed_routes', { mode: 'json' }).$type<RouteClass[]>(),
  /** D27: the key that minted this sub-key (`POST /agent/keys`); null for the account's own keys. */
  parentKeyId: text('parent_key_id'),
});

/** What each key has been charged per period: `total`, `d:2026-11-22`, `m:2026-11`. */
export const keySpend = sqliteTable(
  'key_spend',
  {
    keyId: text('key_id').notNull(),
    period: text('period').notNull(),
    spentMicros: integer('spent_micros').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.period] })],
);

/**
 * The open holds only: a row lives from the hold to its settlement, release or expiry, so the
 * table stays as small as the account's work in flight. What became of a closed hold is in the
 * ledger (`hold:`, `charge:` and `release:` rows under its id).
 * Stored WITHOUT ROWID (migration 0005, hand-written: drizzle cannot declare it): a hold and its
 * settlement each write one B-tree.
 */
export const holds = sqliteTable('holds', {
  id: text('id').primaryKey(),
  keyId: text('key_id'),
  amountMicros: integer('amount_micros').notNull(),
  purpose: text('purpose').notNull(),
  /** The gateway request the hold covers (`X-Request-Id`), so an operator can match it to logs. */
  requestId: text('request_id'),
  createdAt: integer('created_at').notNull(),
  /** The hold's deadline: released unsettled after it (a chat lease, renewed while the request runs). */
  expiresAt: integer('expires_at').notNull(),
  /** D29, in an organization: the member account whose request the hold covers (`key_id` is that member's key). */
  memberAccountId: text('member_account_id'),
});

/** `audit`: a row of amount 0 that records an operator's or the gateway's act (suspension), with its reason. */
/** `loss` (D33): what an upstream billed beyond a hold, the operator's; it moves no money. */
export type LedgerKind = 'credit' | 'hold' | 'charge' | 'release' | 'audit' | 'loss';
export type CreditSource = 'welcome' | 'operator' | 'card' | 'usdc' | 'x402';

/**
 * Every movement of money. `amount_micros` is the change to the balance for credits (negative for
 * a correction) and charges (negative), and the amount set aside or freed for holds and releases.
 */
export const ledger = sqliteTable(
  'ledger',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    kind: text('kind').$type<LedgerKind>().notNull(),
    amountMicros: integer('amount_micros').notNull(),
    balanceAfterMicros: integer('balance_after_micros').notNull(),
    holdId: text('hold_id'),
    keyId: text('key_id'),
    source: text('source').$type<CreditSource>(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    note: text('note'),
    /** The request behind a hold and its charge and release rows. */
    requestId: text('request_id'),
    createdAt: integer('created_at').notNull(),
    /** D29, in an organization: the member account behind a hold, charge or release row (`key_id` is its key). */
    memberAccountId: text('member_account_id'),
  },
  // Holds the alarm released (their callers died): few rows, counted for the operator, and in an
  // organization per member and time (a late charge of one still counts toward its key's limits).
  (t) => [
    index('ledger_expired').on(t.holdId).where(sql`kind = 'release' AND note = 'expired'`),
    index('ledger_member_expired').on(t.memberAccountId, t.createdAt).where(sql`kind = 'release' AND note = 'expired'`),
  ],
);

/**
 * Auto top-up's settings, one row once a card has been saved or the rule set: the card saved at
 * Checkout (a Stripe Customer and its PaymentMethod, with brand and last 4 digits to show), the
 * threshold and amount, and whether it is on. `stopped_by` names the top-up whose failure turned
 * it off; it stays until the human acts (turns it on again or saves another card).
 */
export const topUpSettings = sqliteTable('top_up_settings', {
  /** Always 1: there is one rule per account. */
  id: integer('id').primaryKey(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(false),
  thresholdMicros: integer('threshold_micros').notNull().default(0),
  amountMicros: integer('amount_micros').notNull().default(0),
  customerId: text('customer_id'),
  paymentMethodId: text('payment_method_id'),
  cardBrand: text('card_brand'),
  cardLast4: text('card_last4'),
  stoppedBy: integer('stopped_by'),
  updatedAt: integer('updated_at').notNull(),
});

export type TopUpStatus = 'pending' | 'succeeded' | 'failed';

/**
 * Every auto top-up, numbered: its Stripe idempotency key is `topup:<account>:<n>`, and what it
 * charges (amount, customer, card) is fixed when it starts, so a retry sends the same request.
 * At most one is `pending` (the partial unique index): the one being charged.
 */
export const topUps = sqliteTable(
  'top_ups',
  {
    n: integer('n').primaryKey(),
    status: text('status').$type<TopUpStatus>().notNull(),
    amountMicros: integer('amount_micros').notNull(),
    customerId: text('customer_id').notNull(),
    paymentMethodId: text('payment_method_id').notNull(),
    /** Calls made to Stripe for it; the next one is not before `next_attempt_at` (network trouble only). */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    paymentIntentId: text('payment_intent_id'),
    failureCode: text('failure_code'),
    failureMessage: text('failure_message'),
    createdAt: integer('created_at').notNull(),
    endedAt: integer('ended_at'),
  },
  (t) => [uniqueIndex('top_ups_one_pending').on(t.status).where(sql`status = 'pending'`)],
);

/**
 * One row (id 1) once a claim was opened or approved: the claim init opened last (only it can be
 * approved) and the claim whose human holds the account (only its passkeys sign in; null while
 * unclaimed or after an operator reset). `'legacy'` for accounts claimed before this table.
 */
export const humanClaim = sqliteTable('human_claim', {
  id: integer('id').primaryKey(),
  currentClaimId: text('current_claim_id'),
  humanClaimId: text('human_claim_id'),
  /** D36: set by an operator reset until the account is claimed again; the claim token alone then claims nothing. */
  resetAt: integer('reset_at'),
  /** D36: the reset human's verified address, to which a re-claim's code must be mailed (null: none on record). */
  reclaimEmail: text('reclaim_email'),
  /** D36: the operator's one-time claim token (SHA-256) when no address is on record, and when it stops working. */
  reclaimTokenHash: text('reclaim_token_hash'),
  reclaimTokenExpiresAt: integer('reclaim_token_expires_at'),
});

/** When each recent claim init was accepted, for the per-account limit (rows older than an hour are dropped). */
export const claimInits = sqliteTable('claim_inits', {
  at: integer('at').notNull(),
});

/** D26 request lookup: one row per billed request, kept 30 days (`requests.ts`). */
export const requestRecords = sqliteTable(
  'request_records',
  {
    requestId: text('request_id').primaryKey(),
    path: text('path').notNull(),
    model: text('model'),
    provider: text('provider'),
    /** `succeeded` (settled) or `failed` (released, nothing charged). */
    status: text('status').notNull(),
    createdAt: integer('created_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    streamed: integer('streamed', { mode: 'boolean' }).notNull(),
    costMicros: integer('cost_micros').notNull(),
    /** JSON object of the route's units, e.g. `{"prompt_tokens":12,"completion_tokens":30}`. */
    usage: text('usage').notNull(),
    /** D29, in an organization: the member whose request it was (only that member's keys find it). */
    memberAccountId: text('member_account_id'),
    /** D35: the key whose request it was (a sub-key finds only its own); null on records from before. */
    keyId: text('key_id'),
  },
  (t) => [index('request_records_created_at').on(t.createdAt)],
);

/**
 * D29, in a member account: every organization it joined (the current one is
 * `account.organization_id`), so its request lookup can ask the organizations that hold its
 * records. `left_confirmed_at` is set once the organization has marked the leave.
 */
export const memberships = sqliteTable('memberships', {
  organizationId: text('organization_id').primaryKey(),
  joinedAt: integer('joined_at').notNull(),
  leftAt: integer('left_at'),
  leftConfirmedAt: integer('left_confirmed_at'),
});

export type MemberStatus = 'pending' | 'active' | 'left' | 'refused' | 'removed';

/** D29, in an organization: its members (the organization's view is the truth of status and cap). */
export const orgMembers = sqliteTable('org_members', {
  accountId: text('account_id').primaryKey(),
  status: text('status').$type<MemberStatus>().notNull(),
  /** Monthly cap (UTC calendar month), micro-dollars; null for none. */
  capMicros: integer('cap_micros'),
  inviteId: text('invite_id'),
  joinedAt: integer('joined_at').notNull(),
  approvedAt: integer('approved_at'),
  leftAt: integer('left_at'),
});

/** D29, in an organization: invite codes, only as SHA-256; each joins at most `max_uses` accounts (null: invites made before the count, unbounded), until revoked. */
export const orgInvites = sqliteTable('org_invites', {
  id: text('id').primaryKey(),
  hash: text('hash').notNull().unique(),
  capMicros: integer('cap_micros'),
  autoApprove: integer('auto_approve', { mode: 'boolean' }).notNull().default(false),
  createdAt: integer('created_at').notNull(),
  revokedAt: integer('revoked_at'),
  /** Joins it made (counted in the organization's Durable Object, in the same step as the join). */
  uses: integer('uses').notNull().default(0),
  maxUses: integer('max_uses'),
});

/** D29, in an organization: what each member's key was charged here per period (`total`, `d:...`, `m:...`): caps and key limits. */
export const memberSpend = sqliteTable(
  'member_spend',
  {
    accountId: text('account_id').notNull(),
    keyId: text('key_id').notNull(),
    period: text('period').notNull(),
    spentMicros: integer('spent_micros').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.keyId, t.period] })],
);

/** D29, in an account whose human made organizations in the dashboard: their ids (the organization records its owner). */
export const ownedOrganizations = sqliteTable('owned_organizations', {
  organizationId: text('organization_id').primaryKey(),
  createdAt: integer('created_at').notNull(),
});

/**
 * D29, in a member account: what each of its keys was charged in an organization it has left, per
 * period (`total`, `d:...`, `m:...`), as the organization last reported it. The key's counters
 * (`key_spend`) absorbed exactly these figures; a rejoin subtracts and deletes them.
 */
export const orgKeySpend = sqliteTable(
  'org_key_spend',
  {
    organizationId: text('organization_id').notNull(),
    keyId: text('key_id').notNull(),
    period: text('period').notNull(),
    spentMicros: integer('spent_micros').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.keyId, t.period] })],
);

/**
 * D29, in a member account: holds its organization placed ahead of its requests and not yet handed
 * to one (`org-hold-pool.ts`); each leaves this table in the step that hands it out.
 */
export const orgPoolHolds = sqliteTable('org_pool_holds', {
  holdId: text('hold_id').primaryKey(),
  organizationId: text('organization_id').notNull(),
  keyId: text('key_id').notNull(),
  purpose: text('purpose').notNull(),
  amountMicros: integer('amount_micros').notNull(),
  expiresAt: integer('expires_at').notNull(),
});
