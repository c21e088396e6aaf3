import { newApiKey, newClaimToken, newFundToken, sha256Hex } from './credentials';
import { database } from '../db';
import { insertAccount } from '../db/accounts';

/** An unfunded, unclaimed account is deleted this long after it was made (docs/operators/limits.md). */
export const UNFUNDED_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** A new anonymous account's credentials, each shown once. */
export interface NewAnonymousAccount {
  accountId: string;
  apiKey: string;
  claimToken: string;
  fundToken: string;
  expiresAt: number;
}

/**
 * Makes an anonymous account with one key: its D1 index row first (if creating the account then
 * fails, the sweep still finds and clears the id), then its Durable Object. `POST /agent/register`
 * and x402's keyless paid requests make accounts this way.
 */
export async function createAnonymousAccount(env: Env, options: { now: number; welcomeMicros: number }): Promise<NewAnonymousAccount> {
  const accountId = crypto.randomUUID();
  const apiKey = newApiKey(accountId);
  const claimToken = newClaimToken(accountId);
  const fundToken = newFundToken();
  const expiresAt = options.now + UNFUNDED_LIFETIME_MS;
  await insertAccount(database(env), accountId, options.now, expiresAt, await sha256Hex(fundToken));
  await env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId)).create({
    accountId,
    claimTokenHash: await sha256Hex(claimToken),
    key: { hash: await sha256Hex(apiKey), hint: `ak-…${apiKey.slice(-4)}`, name: 'default' },
    expiresAt,
    welcomeMicros: options.welcomeMicros,
    fundToken,
  });
  return { accountId, apiKey, claimToken, fundToken, expiresAt };
}
