import type { JobFailure } from '../../db/media-jobs';
import { GatewayError } from '../../errors';

/**
 * What a failed job shows (`error`, `error_code`): a `GatewayError`'s message (the provider's own
 * words where it gave some) and its envelope code, so a client branches on the code as it would on
 * a sync answer: `invalid_request` (the provider refused the request, e.g. its content policy),
 * `provider_error` (the provider failed, or may have rendered without answering), and
 * `provider_unavailable` (transport trouble outlasted the retries). Anything else is our own fault:
 * `api_error` with a fixed message, never its internal text.
 */
export function jobFailure(err: unknown): JobFailure {
  if (err instanceof GatewayError) return { code: err.code, message: err.message };
  return { code: 'api_error', message: 'The render failed.' };
}

/** A job still open past its deadline (the sweep's, or a late delivery's). */
export function overdue(message = 'The job did not finish in time.'): JobFailure {
  return { code: 'provider_error', message };
}
