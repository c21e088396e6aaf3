import type { CallCountsView } from '../../durable-objects/account/call-counts';
import type { AccountSnapshot, KeyRecord, LedgerEntry, OpenHoldView } from '../../durable-objects/account/types';
import { formatUsd } from '../money';
import { fundUrl } from '../urls';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const usd = (micros: number | null) => (micros === null ? null : formatUsd(micros));

/** `GET /agent/account`: the spec's account fields, plus the id and what open work holds. */
export function accountBody(account: AccountSnapshot, base: string) {
  return {
    account_id: account.accountId,
    balance_usd: formatUsd(account.balanceMicros),
    held_usd: formatUsd(account.heldMicros),
    claimed: account.claimed,
    fund_url: account.fundToken ? fundUrl(base, account.fundToken) : null,
    expires_unless_funded_at: iso(account.expiresAt),
    unclaimed_funding_remaining_usd: usd(account.unclaimedFundingRemainingMicros),
    created_at: new Date(account.createdAt).toISOString(),
    ...(account.organization && {
      organization: {
        id: account.organization.organizationId,
        name: account.organization.name,
        status: account.organization.status,
        member_cap_usd: usd(account.organization.capMicros),
        spent_this_month_usd: formatUsd(account.organization.spentThisMonthMicros),
      },
    }),
  };
}

/** A key as operators and dashboards see it: never the secret or its hash. */
export function keyBody(key: KeyRecord) {
  return {
    id: key.id,
    name: key.name,
    hint: key.hint,
    created_at: new Date(key.createdAt).toISOString(),
    revoked_at: iso(key.revokedAt),
    expires_at: iso(key.expiresAt),
    daily_limit_usd: usd(key.dailyLimitMicros),
    monthly_limit_usd: usd(key.monthlyLimitMicros),
    total_limit_usd: usd(key.totalLimitMicros),
    allowed_models: key.allowedModels,
    allowed_routes: key.allowedRoutes,
    parent_key_id: key.parentKeyId,
  };
}

export function ledgerBody(entry: LedgerEntry) {
  return {
    seq: entry.seq,
    kind: entry.kind,
    amount_usd: formatUsd(entry.amountMicros),
    balance_after_usd: formatUsd(entry.balanceAfterMicros),
    hold_id: entry.holdId,
    key_id: entry.keyId,
    source: entry.source,
    note: entry.note,
    request_id: entry.requestId,
    created_at: new Date(entry.createdAt).toISOString(),
    ...(entry.memberAccountId !== null && { member_account_id: entry.memberAccountId }),
  };
}

/** An open hold as operators see it: what it covers and when it is released unless settled. */
export function holdBody(hold: OpenHoldView) {
  return {
    id: hold.holdId,
    key_id: hold.keyId,
    amount_usd: formatUsd(hold.amountMicros),
    purpose: hold.purpose,
    request_id: hold.requestId,
    created_at: new Date(hold.createdAt).toISOString(),
    expires_at: new Date(hold.expiresAt).toISOString(),
  };
}

/** The calls that reached an account's Durable Object since it was loaded, as the operator sees them. */
export function callCountsBody(view: CallCountsView) {
  return { since: new Date(view.since).toISOString(), calls: view.calls, by_method: view.byMethod, ops: view.ops };
}
