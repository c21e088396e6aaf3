import { randomBase62 } from '../accounts/credentials';
import { database } from '../db';
import { expireIntents, insertIntent, type FundingIntentRow } from '../db/funding';
import { GatewayError } from '../errors';
import { MICROS_PER_USD } from '../money';
import { chainClient, headBlock } from './chain';
import { BASE_CHAIN_ID, type UsdcConfig, usdcConfig } from './usdc-config';

/** How long an intent's exact amount stays reserved for its account. */
export const INTENT_LIFETIME_MS = 60 * 60 * 1000;
/** The tail that makes an amount unique: 1 to 9,999 micro-USDC, so less than one cent on top. */
const MAX_TAIL_MICROS = 9_999;
const ATTEMPTS = 8;

export interface UsdcIntent {
  intent: FundingIntentRow;
  config: UsdcConfig;
}

/**
 * Opens a USDC intent: an exact amount, unique among open intents, that names this account when
 * exactly that much arrives at the deposit address. 502 `funding_unavailable` when the rail is
 * not configured or its chain endpoint does not answer (checked now, so an agent is never told to
 * pay into a rail that cannot see its payment).
 */
export async function openUsdcIntent(env: Env, accountId: string, amountUsd: number, now = Date.now()): Promise<UsdcIntent> {
  const config = usdcConfig(env);
  if (!config) throw new GatewayError('funding_unavailable', 'USDC funding is not configured on this gateway.');
  try {
    await headBlock(chainClient(config));
  } catch (err) {
    console.error('USDC chain endpoint did not answer', err);
    throw new GatewayError('funding_unavailable', 'The Base network endpoint does not answer right now; retry shortly.');
  }
  const db = database(env);
  await expireIntents(db, now);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const intent: FundingIntentRow = {
      id: `pi_${randomBase62(24)}`,
      accountId,
      amountUsd,
      amountMicros: amountUsd * MICROS_PER_USD + 1 + randomInt(MAX_TAIL_MICROS),
      status: 'open',
      createdAt: now,
      expiresAt: now + INTENT_LIFETIME_MS,
      depositId: null,
    };
    if (await insertIntent(db, intent)) {
      await env.FUNDING_WATCHER.get(env.FUNDING_WATCHER.idFromName('usdc')).wake();
      return { intent, config };
    }
  }
  throw new GatewayError('funding_unavailable', 'No unique amount is free for this sum right now; retry shortly or choose another amount.');
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
    `Send exactly ${usdcAmount(intent.amountMicros)} USDC on Base (chain id ${BASE_CHAIN_ID}, token contract ${config.token}) to ${config.depositAddress} within ${minutes} minutes, by ${new Date(intent.expiresAt).toISOString()}.`,
    'The exact amount, to the last digit, is what identifies this account: a wallet or exchange that deducts a fee from the amount sent breaks the match.',
    `Once the transfer has ${config.confirmations} confirmation(s), the balance rises by exactly the USDC received (1 USDC = 1 USD, the digits after the dollar included); poll GET /agent/account no more often than every 5 seconds.`,
    'A transfer of another amount, or after the intent expired, is kept for the operator to credit by hand; ask again with POST /agent/fund for a new amount.',
  ].join('\n');
}
