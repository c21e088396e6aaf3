import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';

/**
 * The gateway's one error class and envelope, at the bottom of the imports: this module imports
 * nothing of the gateway. The renderer that completes a 402's `error.funding` and its x402
 * challenge sits at the HTTP layer (`src/routes/error-response.ts`).
 */

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

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'authorization_error'
  | 'insufficient_credits_error'
  | 'rate_limit_error'
  | 'api_error';

/** Every error code the gateway sends, with its HTTP status and `error.type` (spec "Errors", D4). */
const ERROR_CODES = {
  invalid_request: [400, 'invalid_request_error'],
  unsupported_content: [400, 'invalid_request_error'],
  registration_type_not_supported: [400, 'invalid_request_error'],
  authorization_pending: [400, 'invalid_request_error'],
  slow_down: [400, 'invalid_request_error'],
  expired_token: [400, 'invalid_request_error'],
  missing_api_key: [401, 'authentication_error'],
  invalid_api_key: [401, 'authentication_error'],
  api_key_revoked: [401, 'authentication_error'],
  api_key_expired: [401, 'authentication_error'],
  invalid_claim_token: [401, 'authentication_error'],
  invalid_admin_token: [401, 'authentication_error'],
  insufficient_credits: [402, 'insufficient_credits_error'],
  insufficient_org_credits: [402, 'insufficient_credits_error'],
  member_cap_exceeded: [402, 'insufficient_credits_error'],
  model_not_allowed: [403, 'authorization_error'],
  guardrail_blocked: [403, 'authorization_error'],
  membership_pending: [403, 'authorization_error'],
  account_suspended: [403, 'authorization_error'],
  blocked_domain: [403, 'authorization_error'],
  robots_disallowed: [403, 'authorization_error'],
  not_found: [404, 'invalid_request_error'],
  model_not_found: [404, 'invalid_request_error'],
  method_not_allowed: [405, 'invalid_request_error'],
  request_too_large: [413, 'invalid_request_error'],
  unsupported_media_type: [415, 'invalid_request_error'],
  no_content: [422, 'invalid_request_error'],
  rate_limit_exceeded: [429, 'rate_limit_error'],
  too_many_concurrent_requests: [429, 'rate_limit_error'],
  credit_limit_exceeded: [429, 'rate_limit_error'],
  monthly_spend_limit_exceeded: [429, 'rate_limit_error'],
  daily_spend_limit_exceeded: [429, 'rate_limit_error'],
  upload_allowance_exceeded: [429, 'rate_limit_error'],
  agent_register_rate_limited: [429, 'rate_limit_error'],
  claim_attempts_exceeded: [429, 'rate_limit_error'],
  api_error: [500, 'api_error'],
  provider_error: [502, 'api_error'],
  fetch_failed: [502, 'api_error'],
  scrape_blocked: [502, 'api_error'],
  funding_unavailable: [502, 'api_error'],
  provider_unavailable: [503, 'api_error'],
  spend_check_unavailable: [503, 'api_error'],
} as const satisfies Record<string, readonly [ContentfulStatusCode, ErrorType]>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; type: ErrorType; param?: string; funding?: FundingDetails };
}

export interface GatewayErrorOptions {
  /** The request field at fault, as a dotted path (`messages.0.content`). */
  param?: string;
  /** Seconds, for 429 and 503 answers. */
  retryAfter?: number;
  /** Extra top-level members beside `error` (D18: `interval` on `slow_down`). */
  extra?: Record<string, unknown>;
  /** On a 402: how the account can pay, completed into `error.funding` when rendered (D23). */
  funding?: FundingHint;
}

/** The one error every handler throws; `app.onError` renders it as the spec's envelope. */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly status: ContentfulStatusCode;
  readonly type: ErrorType;
  readonly options: GatewayErrorOptions;

  constructor(code: ErrorCode, message: string, options: GatewayErrorOptions = {}) {
    super(message);
    this.name = 'GatewayError';
    this.code = code;
    [this.status, this.type] = ERROR_CODES[code];
    this.options = options;
  }

  body(): ErrorBody & Record<string, unknown> {
    const { param, extra } = this.options;
    const error = { code: this.code, message: this.message, type: this.type, ...(param ? { param } : {}) };
    return { ...extra, error };
  }

  headers(): Record<string, string> {
    const { retryAfter } = this.options;
    return retryAfter === undefined ? {} : { 'Retry-After': String(Math.max(1, Math.ceil(retryAfter))) };
  }
}

/** Turns any thrown value into the spec's envelope; unknown failures become a bare 500 (no internals). */
export function toGatewayError(err: unknown, requestId: string): GatewayError {
  if (err instanceof GatewayError) return err;
  if (err instanceof HTTPException && err.status < 500) {
    // Hono's own refusals (body parsing, media types): always the client's, never a 500.
    if (err.status === 413) return new GatewayError('request_too_large', 'The request body is too large.');
    if (err.status === 415) return new GatewayError('unsupported_media_type', err.message || 'Unsupported media type.');
    const malformed = /json/i.test(err.message);
    return new GatewayError('invalid_request', malformed ? 'The request body is not valid JSON: send one JSON object.' : err.message || 'Bad request.');
  }
  console.error(JSON.stringify({ requestId, error: err instanceof Error ? err.stack ?? err.message : String(err) }));
  return new GatewayError('api_error', `The gateway hit an unexpected error. Quote request id ${requestId} when reporting it.`);
}

/** Validation failures name the field at fault as a dotted path in `error.param`. */
export function validationError(error: ZodError): GatewayError {
  const issue = error.issues[0];
  const param = issue?.path.map(String).join('.') ?? '';
  if (issue && param === '' && issue.code === 'invalid_type') return new GatewayError('invalid_request', 'The request body must be a JSON object.');
  const detail = issue?.message ?? 'Invalid request.';
  return new GatewayError('invalid_request', param ? `${param}: ${detail}` : detail, param ? { param } : {});
}
