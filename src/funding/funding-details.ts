import type { Context } from 'hono';
import type { AppEnv } from '../env';
import type { FundingDetails, FundingHint } from '../errors';
import { formatUsd } from '../money';
import { fundUrl, publicBaseUrl } from '../urls';
import { usdcConfig } from './usdc-config';
import { x402Config } from '../x402/config';

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
