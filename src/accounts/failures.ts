import type { HoldFailure } from '../../durable-objects/account/types';
import { GatewayError } from '../errors';
import { formatUsd } from '../money';

/**
 * The one mapping from the account's typed refusals to wire errors (spec "Authentication" and
 * "Errors"). `describeShortfall` lets a route say what the balance does cover (D5 for chat).
 */
export function holdFailureError(failure: HoldFailure, describeShortfall?: (availableMicros: number) => string): GatewayError {
  switch (failure.reason) {
    case 'invalid_key':
      return new GatewayError('invalid_api_key', 'The API key is not valid.');
    case 'revoked':
      return new GatewayError('api_key_revoked', 'This API key has been revoked.');
    case 'expired':
      return new GatewayError('api_key_expired', 'This API key has expired.');
    case 'account_suspended':
      return new GatewayError(
        'account_suspended',
        failure.organizationId
          ? `Organization ${failure.organizationId}, whose balance this account spends, is suspended; its members' billed requests are refused until the operator lifts the suspension.`
          : 'This account is suspended; its keys are refused until the operator lifts the suspension. Funding it still works.',
      );
    case 'model_not_allowed':
      return new GatewayError('model_not_allowed', `This API key may not use ${failure.model}.`, { param: 'model' });
    case 'route_not_allowed':
      return new GatewayError(
        'guardrail_blocked',
        failure.route === 'unclassified'
          ? 'This API key is limited to some route classes (allowed_routes) and this route is not one of them.'
          : `This API key may not use ${failure.route} routes (its allowed_routes do not include "${failure.route}").`,
      );
    case 'insufficient_credits':
      return new GatewayError(
        'insufficient_credits',
        describeShortfall?.(failure.availableMicros) ??
          `Insufficient credits: this request needs up to $${formatUsd(failure.neededMicros)} and $${formatUsd(failure.availableMicros)} is available. Fund the account and retry.`,
        { funding: { fundToken: failure.fundToken, availableMicros: failure.availableMicros, requiredMicros: failure.neededMicros } },
      );
    case 'daily_limit':
      return new GatewayError('daily_spend_limit_exceeded', "This API key has reached its daily spend limit (UTC day).", { retryAfter: failure.retryAfterSeconds });
    case 'monthly_limit':
      return new GatewayError('monthly_spend_limit_exceeded', 'This API key has reached its monthly spend limit (UTC month).', { retryAfter: failure.retryAfterSeconds });
    case 'total_limit':
      return new GatewayError('credit_limit_exceeded', "This API key has reached its total credit limit; raise the key's limit to continue.", { retryAfter: failure.retryAfterSeconds });
    case 'membership_pending':
      return new GatewayError('membership_pending', `This account's membership of organization ${failure.organizationId} is pending approval; its billed requests are refused until an owner or the operator approves it.`);
    case 'insufficient_org_credits':
      return new GatewayError(
        'insufficient_org_credits',
        `Insufficient organization credits: this request needs up to $${formatUsd(failure.neededMicros)} and organization ${failure.organizationId} has $${formatUsd(failure.availableMicros)} available. Fund the organization (error.funding.fund_url) and retry.`,
        { funding: { fundToken: failure.fundToken, availableMicros: failure.availableMicros, requiredMicros: failure.neededMicros, organizationId: failure.organizationId } },
      );
    case 'member_cap_exceeded':
      return new GatewayError(
        'member_cap_exceeded',
        `This account's monthly cap in organization ${failure.organizationId} ($${formatUsd(failure.capMicros)} per UTC month) leaves $${formatUsd(failure.remainingMicros)} and this request needs up to $${formatUsd(failure.neededMicros)}. The cap renews at the start of the next UTC month, or an owner raises it.`,
        { retryAfter: failure.retryAfterSeconds },
      );
    case 'rate_limited':
      return new GatewayError('rate_limit_exceeded', `At most ${failure.perMinute} requests a minute per account on this free model; retry in ${failure.retryAfterSeconds} s.`, {
        retryAfter: failure.retryAfterSeconds,
      });
    case 'too_many_holds':
      return new GatewayError('too_many_concurrent_requests', `This account already has ${failure.openHolds} billed requests in flight; retry shortly.`, { retryAfter: 1 });
  }
}
