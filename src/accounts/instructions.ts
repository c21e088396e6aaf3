import { fundUrl } from '../urls';

/** What a freshly registered agent should do next, in plain words it can follow. */
export function registrationInstructions(input: { base: string; fundToken: string; expiresAt: string; welcomeUsd: string | null }): string {
  const { base, fundToken, expiresAt, welcomeUsd } = input;
  return [
    'Save api_key and claim_token now: neither is shown again, and the claim_token is the only way to recover the account.',
    `Use the key as "Authorization: Bearer <api_key>" with any OpenAI-compatible client pointed at ${base}/v1; GET ${base}/v1/models lists models and prices.`,
    welcomeUsd ? `A one-time welcome credit of $${welcomeUsd} is already on the balance.` : 'The balance starts at $0.000000; requests that cost money answer 402 until it is funded.',
    `To fund: give a human ${fundUrl(base, fundToken)} (card or USDC, no login), or POST ${base}/agent/fund {"amount_usd": 10} for a USDC-on-Base deposit address.`,
    `Then poll GET ${base}/agent/account no more often than every 5 seconds until balance_usd rises.`,
    `Unless funded, the account and its data are deleted after ${expiresAt}.`,
    `To hand the account to a human, POST ${base}/agent/claim/init {"claim_token": "..."} and show them both the verification link and the code.`,
    `Full guide: ${base}/auth.md`,
  ].join('\n');
}
