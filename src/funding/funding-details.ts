import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { formatUsd } from '../money';
import { fundUrl, publicBaseUrl } from '../urls';
import { usdcConfig } from './usdc-config';
import { x402Config } from '../x402/config';

/** What the account tells the Worker when it refuses for want of money: its fund link's token and the two amounts. */
export interface FundingHint {
  fundToken: string | null;
  availableMicros: number;
  requiredMicros: number;
  /** What an x402 challenge asks for when it is not the shortfall (a refused payment: the amount to pay again). */
  x402AmountMicros?: number;
  /** D29: the balance short is this organization's (its fund link; a payment per request would credit the member instead, so no x402). */
  organizationId?: string;
}

/** `error.funding` of a 402 `insufficient_credits` (D23): every way this account can pay, and how much it has and needs. */
export interface FundingDetails {
  fund_url: string | null;
  usdc: { network: 'base'; contract: string; fund_endpoint: string } | null;
  x402: boolean;
  available_usd: string;
  required_usd: string;
  /** D29: present when the balance short is an organization's: the fund link and USDC endpoint are its own. */
  organization_id?: string;
}

export function fundingDetails(c: Context<AppEnv>, hint: FundingHint): FundingDetails {
  const base = publicBaseUrl(c);
  const usdc = usdcConfig(c.env);
  return {
    fund_url: hint.fundToken ? fundUrl(base, hint.fundToken) : null,
    // Null when the operator has not set up the USDC rail: `POST /agent/fund` would answer 502.
    // An organization is funded through its fund link: `POST /agent/fund` would credit the member.
    usdc: usdc && hint.organizationId === undefined ? { network: 'base', contract: usdc.token, fund_endpoint: `${base}/agent/fund` } : null,
    // Pay-per-request (x402, issue #22): the 402 also carries a `PAYMENT-REQUIRED` challenge.
    x402: hint.organizationId === undefined && x402Config(c.env) !== undefined,
    available_usd: formatUsd(hint.availableMicros),
    required_usd: formatUsd(hint.requiredMicros),
    ...(hint.organizationId !== undefined && { organization_id: hint.organizationId }),
  };
}
