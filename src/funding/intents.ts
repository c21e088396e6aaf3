import { randomBase62 } from '../accounts/credentials';
import { database } from '../db';
import { expireIntents, type FundingIntentRow } from '../db/funding';
import { insertIntentUnderCap, openIntentsOf, takeFundingRequest, type IntentBucket } from '../db/funding-limits';
import { GatewayError } from '../errors';
import { utcHour } from '../human/limits';
import { MICROS_PER_USD } from '../money';
import { ChainMismatchError } from './chain-mismatch';
import { type UsdcConfig, usdcConfig } from './usdc-config';

/** How long an intent's exact amount stays reserved for its account. */
export const INTENT_LIFETIME_MS = 60 * 60 * 1000;
/**
 * The tail that makes an amount unique: 1 to 999,999 micro-USDC, under a dollar on top, which the
 * payer pays and is credited with (D17). An amount is unavailable only while all 999,999 of its
 * tails are open at once: 100,000 accounts at the cap below, which registration's 10 a day per
 * address (an IPv6 /64 counting as one) puts a day and 10,000 addresses away; short of that, 8
 * random draws all hitting open tails is rarer than (share taken)^8.
 */
export const MAX_TAIL_MICROS = 999_999;
const ATTEMPTS = 8;
/** Open intents one account may hold; the next request is 429 until the first expires. */
export const OPEN_INTENTS_PER_ACCOUNT = 10;
/** USDC funding requests (`POST /agent/fund` and the fund page's USDC form) per account per UTC hour. */
export const FUNDING_REQUESTS_PER_ACCOUNT_PER_HOUR = 30;
/**
 * D35: a sub-key's intents and requests count apart from the account's, so no sub-key uses up
 * what its parent may ask: each sub-key may hold this many open intents and make
 * SUB_KEY_FUNDING_REQUESTS_PER_HOUR requests an hour, and all of an account's sub-keys together
 * OPEN_INTENTS_PER_ACCOUNT and FUNDING_REQUESTS_PER_ACCOUNT_PER_HOUR (so an account holds at most
 * twice OPEN_INTENTS_PER_ACCOUNT open intents, which the tail arithmetic above allows for).
 */
export const OPEN_INTENTS_PER_SUB_KEY = 2;
export const SUB_KEY_FUNDING_REQUESTS_PER_HOUR = 10;

export interface UsdcIntent {
  intent: FundingIntentRow;
  config: UsdcConfig;
}

/**
 * Opens a USDC intent: an exact amount, unique among open intents, that names this account when
 * exactly that much arrives at the deposit address. 502 `funding_unavailable` when the rail is
 * not configured or its chain endpoint does not answer (checked now, so an agent is never told to
 * pay into a rail that cannot see its payment). 429 `rate_limit_exceeded` with `Retry-After` past
 * the hourly requests or the open intents of the account, or of the sub-key `subKeyId` that asks (D35).
 */
export async function openUsdcIntent(env: Env, accountId: string, amountUsd: number, now = Date.now(), subKeyId: string | null = null): Promise<UsdcIntent> {
  const config = usdcConfig(env);
  if (!config) throw new GatewayError('funding_unavailable', 'USDC funding is not configured on this gateway.');
  const db = database(env);
  const { hour, secondsLeft } = utcHour(now);
  const counters =
    subKeyId === null
      ? [{ id: accountId, limit: FUNDING_REQUESTS_PER_ACCOUNT_PER_HOUR, who: 'per account' }]
      : [
          { id: `${accountId}:${subKeyId}`, limit: SUB_KEY_FUNDING_REQUESTS_PER_HOUR, who: 'per sub-key' },
          { id: `${accountId}:sub-keys`, limit: FUNDING_REQUESTS_PER_ACCOUNT_PER_HOUR, who: "for all of an account's sub-keys" },
        ];
  for (const counter of counters) {
    if ((await takeFundingRequest(db, counter.id, hour, counter.limit)) === null) {
      throw new GatewayError('rate_limit_exceeded', `At most ${counter.limit} USDC funding requests ${counter.who} per hour.`, { retryAfter: secondsLeft });
    }
  }
  const caps: { bucket: IntentBucket; cap: number; who: string }[] =
    subKeyId === null
      ? [{ bucket: { accountId, subKeyId: null }, cap: OPEN_INTENTS_PER_ACCOUNT, who: 'This account already has' }]
      : [
          { bucket: { accountId, subKeyId }, cap: OPEN_INTENTS_PER_SUB_KEY, who: 'This sub-key already has' },
          { bucket: { accountId, allSubKeys: true }, cap: OPEN_INTENTS_PER_ACCOUNT, who: "This account's sub-keys already have" },
        ];
  const cappedBy = async ({ bucket, cap, who }: (typeof caps)[number]) => {
    const { firstExpiresAt } = await openIntentsOf(db, bucket, now);
    return new GatewayError('rate_limit_exceeded', `${who} ${cap} open USDC intents: pay one of them, or ask again when the first expires.`, {
      retryAfter: firstExpiresAt === null ? 1 : (firstExpiresAt - now) / 1000,
    });
  };
  const capped = async () => {
    for (const cap of caps) if ((await openIntentsOf(db, cap.bucket, now)).open >= cap.cap) return cappedBy(cap);
    return cappedBy(caps[0]!);
  };
  await expireIntents(db, now);
  for (const cap of caps) if ((await openIntentsOf(db, cap.bucket, now)).open >= cap.cap) throw await cappedBy(cap);
  try {
    const { chainClient, headBlock } = await import('./chain');
    await headBlock(chainClient(config));
  } catch (err) {
    console.error('USDC chain endpoint did not answer', err);
    const why = err instanceof ChainMismatchError ? 'is not on the configured network' : 'does not answer right now';
    throw new GatewayError('funding_unavailable', `The Base network endpoint ${why}; retry shortly.`);
  }
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const intent: FundingIntentRow = {
      id: `pi_${randomBase62(24)}`,
      accountId,
      amountUsd,
      amountMicros: amountUsd * MICROS_PER_USD + intentTail(),
      status: 'open',
      createdAt: now,
      expiresAt: now + INTENT_LIFETIME_MS,
      depositId: null,
      subKeyId,
    };
    const outcome = await insertIntentUnderCap(db, intent, caps, now);
    if (outcome === 'capped') throw await capped();
    if (outcome === 'opened') {
      await env.FUNDING_WATCHER.get(env.FUNDING_WATCHER.idFromName('usdc')).wake();
      return { intent, config };
    }
  }
  throw new GatewayError('funding_unavailable', 'No unique amount is free for this sum right now; retry shortly or choose another amount.');
}

/**
 * A random tail of 1 to 999,999 micro-USDC that is never a whole number of cents: x402 payments to
 * the same deposit address are whole cents (`src/x402/config.ts`), so the watcher never takes one
 * for an intent's deposit.
 */
export function intentTail(): number {
  const tail = 1 + randomInt(MAX_TAIL_MICROS);
  return tail % 10_000 === 0 ? tail + 1 : tail;
}

function randomInt(below: number): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]! % below;
}

/** `10000437` -> `"10.000437"`: the exact amount to send, in USDC. */
export function usdcAmount(micros: number): string {
  return `${Math.floor(micros / MICROS_PER_USD)}.${String(micros % MICROS_PER_USD).padStart(6, '0')}`;
}

/** What the agent (or the person on the fund page) must do, in plain words. */
export function intentInstructions({ intent, config }: UsdcIntent): string {
  const minutes = Math.round(INTENT_LIFETIME_MS / 60_000);
  return [
    `Send exactly ${usdcAmount(intent.amountMicros)} USDC on Base (chain id ${config.chainId}, token contract ${config.token}) to ${config.depositAddress} within ${minutes} minutes, by ${new Date(intent.expiresAt).toISOString()}.`,
    'The exact amount, to the last digit, is what identifies this account: a wallet or exchange that deducts a fee from the amount sent breaks the match.',
    `Once the transfer has ${config.confirmations} confirmation(s), the balance rises by exactly the USDC received (1 USDC = 1 USD, the digits after the dollar included); poll GET /agent/account no more often than every 5 seconds.`,
    'A transfer of another amount, or after the intent expired, is kept for the operator to credit by hand; ask again with POST /agent/fund for a new amount.',
  ].join('\n');
}
