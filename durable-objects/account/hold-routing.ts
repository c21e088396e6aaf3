import type { KeyTree } from './key-tree';
import type { Keys } from './keys';
import type { Ledger } from './ledger';
import type { AccountMemory } from './memory';
import type { Membership } from './membership';
import { poolable, type MemberHoldPool } from './org-hold-pool';
import type { MemberHoldRequest, NotMember } from './org-protocol';
import type { SpendCounters } from './spend';
import type { Hold, HoldFailure, HoldRequest, Result } from './types';

/** D29: the refusals a member's hold pool could cause by keeping part of the organization's room aside. */
const REFUSALS_THE_POOL_MAY_CAUSE: ReadonlySet<string> = new Set(['insufficient_org_credits', 'member_cap_exceeded', 'too_many_holds']);

type HoldResult = Result<Hold, HoldFailure>;

/**
 * One attempt's outcome: the answer, or a step that must finish (a call to the organization,
 * giving the pool back, counting a left organization's spend) before the next attempt. A step
 * answers the hold itself, or null to attempt again.
 */
type Attempt = { answer: HoldResult } | { step: Promise<HoldResult | null> };

/** The modules of the account's object a hold goes through. */
export interface HoldRoutingParts {
  memory: AccountMemory;
  keys: Keys;
  tree: KeyTree;
  spend: SpendCounters;
  ledger: Ledger;
  membership: Membership;
  pool: MemberHoldPool;
}

/** What the attempts of one hold have done already, so that each detour is taken once. */
interface Progress {
  /** A left organization's spend was counted (or needs no counting). */
  refreshed: boolean;
  /** The pool gave its holds back after the organization refused. */
  gaveBack: boolean;
  /** The organization no longer counted this account a member, and it was forgotten. */
  left: boolean;
}

/**
 * Where a checked key's hold is made (D29): in this account's ledger, or, for a member of an
 * organization, from the pool the organization placed ahead or by asking the organization. A
 * small state machine: each attempt answers at once (the usual case, with no await, so a batch is
 * applied synchronously), or names one detour to finish first, after which it is attempted
 * again; `Progress` lets each detour happen once.
 */
export class HoldRouting {
  readonly #parts: HoldRoutingParts;

  constructor(parts: HoldRoutingParts) {
    this.#parts = parts;
  }

  hold(request: HoldRequest, now: number): HoldResult | Promise<HoldResult> {
    const progress: Progress = { refreshed: false, gaveBack: false, left: false };
    const first = this.#attempt(request, now, progress);
    return 'answer' in first ? first.answer : this.#untilAnswered(request, first, progress);
  }

  async #untilAnswered(request: HoldRequest, attempt: Attempt, progress: Progress): Promise<HoldResult> {
    for (;;) {
      if ('answer' in attempt) return attempt.answer;
      const answered = await attempt.step;
      if (answered) return answered;
      attempt = this.#attempt(request, Date.now(), progress);
    }
  }

  /**
   * Checks the key here; then holds in this account's ledger, or, for a member, passes the key's
   * limits as counted here to the organization (an unlimited key's short hold comes from the pool
   * with no call out; a key bounded by a limit, its own or a key's above it, D35, asks).
   */
  #attempt(request: HoldRequest, now: number, progress: Progress): Attempt {
    const { keys, tree, membership, ledger, pool, spend, memory } = this.#parts;
    const checked = keys.check(request.keyHash, request.model, now, request.route ?? 'unclassified');
    if (!checked.ok) return { answer: checked };
    // A fallback model may serve too: the key must be allowed every one (D34, D35).
    for (const model of request.fallbackModels ?? []) {
      const fallback = keys.check(request.keyHash, model, now, request.route ?? 'unclassified');
      if (!fallback.ok) return { answer: fallback };
    }
    const organizationId = membership.organizationId;
    if (organizationId === null) {
      // A limited key of an account that left an organization with a hold still open there first
      // counts what that organization charged it since (D29): each charge once, settled before or after the leave.
      if (!progress.refreshed && tree.limited(checked.key) && membership.unconfirmed().size > 0) {
        progress.refreshed = true;
        return { step: membership.refreshLeft().then(() => null) };
      }
      return { answer: ledger.hold(checked.key, request, now) };
    }
    const { keyHash: _keyHash, ...rest } = request;
    if (!tree.limited(checked.key) && poolable(rest)) {
      const pooled = pool.take(organizationId, checked.key.id, rest, now);
      if (pooled) return { answer: pooled };
    }
    const input: MemberHoldRequest = { memberAccountId: memory.account!.id, keyId: checked.key.id, keyLimits: spend.limits(checked.key, now), request: rest };
    return { step: membership.peer(organizationId).holdForMember(input).then((result) => this.#afterOrganization(result, organizationId, progress)) };
  }

  /**
   * The organization's answer: the hold, or a refusal. What the pool keeps aside must never
   * refuse a request, so a refusal it may have caused gives the pool back and asks once more. An
   * organization that no longer counts this account a member (it removed or refused it) is
   * forgotten, its keys' spend there keeps counting here, and the hold is made here after all.
   */
  async #afterOrganization(result: Result<Hold, HoldFailure | NotMember>, organizationId: string, progress: Progress): Promise<HoldResult | null> {
    const { membership, pool } = this.#parts;
    if (result.ok) return result;
    if (result.reason !== 'not_member') {
      if (progress.gaveBack || !pool.holding(organizationId) || !REFUSALS_THE_POOL_MAY_CAUSE.has(result.reason)) return result;
      progress.gaveBack = true;
      await pool.giveBack(organizationId, Date.now());
      return null;
    }
    membership.forget(organizationId, Date.now());
    await pool.giveBack(organizationId, Date.now());
    if (progress.left) throw new Error('organization membership changed during the hold');
    progress.left = true;
    progress.refreshed = true;
    // A failure here is retried by the next leave.
    await membership.confirmLeft(organizationId).catch((err: unknown) => console.error('organization spend not absorbed', err));
    return null;
  }
}
