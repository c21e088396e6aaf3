import { GatewayError } from '../../errors';
import type { GuardedFetchFailure } from './fetch';

/**
 * The one mapping from a failed guarded fetch to a wire error: a refused URL is the caller's
 * fault (400, naming the request field), the rest are upstream failures (502).
 */
export function guardFailureError(failure: GuardedFetchFailure, param = 'url'): GatewayError {
  switch (failure.kind) {
    case 'rejected':
      return new GatewayError('invalid_request', failure.reason, { param });
    case 'too_many_redirects':
    case 'network':
    case 'timeout':
      return new GatewayError('fetch_failed', failure.reason);
  }
}
