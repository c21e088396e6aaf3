import { describe, expect, it } from 'vitest';
import type { HoldFailure } from '../../durable-objects/account/types';
import { holdFailureError } from './failures';

describe('holdFailureError', () => {
  it.each<[HoldFailure, number, string, string]>([
    [{ reason: 'invalid_key' }, 401, 'invalid_api_key', 'authentication_error'],
    [{ reason: 'revoked' }, 401, 'api_key_revoked', 'authentication_error'],
    [{ reason: 'expired' }, 401, 'api_key_expired', 'authentication_error'],
    [{ reason: 'model_not_allowed', model: 'openai/gpt-4o' }, 403, 'model_not_allowed', 'authorization_error'],
    [{ reason: 'insufficient_credits', availableMicros: 5, neededMicros: 10, fundToken: null }, 402, 'insufficient_credits', 'insufficient_credits_error'],
    [{ reason: 'daily_limit', remainingMicros: 0, retryAfterSeconds: 60 }, 429, 'daily_spend_limit_exceeded', 'rate_limit_error'],
    [{ reason: 'monthly_limit', remainingMicros: 0, retryAfterSeconds: 60 }, 429, 'monthly_spend_limit_exceeded', 'rate_limit_error'],
    [{ reason: 'total_limit', remainingMicros: 0, retryAfterSeconds: 60 }, 429, 'credit_limit_exceeded', 'rate_limit_error'],
    [{ reason: 'too_many_holds', openHolds: 128 }, 429, 'too_many_concurrent_requests', 'rate_limit_error'],
    [{ reason: 'membership_pending', organizationId: 'org' }, 403, 'membership_pending', 'authorization_error'],
    [{ reason: 'insufficient_org_credits', organizationId: 'org', availableMicros: 5, neededMicros: 10, fundToken: 'tok' }, 402, 'insufficient_org_credits', 'insufficient_credits_error'],
    [
      { reason: 'member_cap_exceeded', organizationId: 'org', remainingMicros: 5, neededMicros: 10, capMicros: 100, retryAfterSeconds: 3600, fundToken: 'tok' },
      402,
      'member_cap_exceeded',
      'insufficient_credits_error',
    ],
  ])('maps %o to %i %s', (failure, status, code, type) => {
    const error = holdFailureError(failure);
    expect([error.status, error.code, error.type]).toEqual([status, code, type]);
    if (status === 429) expect(Number(error.headers()['Retry-After'])).toBeGreaterThan(0);
  });

  it('names the model field for a model outside the allowlist', () => {
    expect(holdFailureError({ reason: 'model_not_allowed', model: 'x/y' }).body().error.param).toBe('model');
  });

  it('lets the route describe what the balance covers (D5)', () => {
    const error = holdFailureError({ reason: 'insufficient_credits', availableMicros: 1500, neededMicros: 9000, fundToken: 'tok' }, (micros) => `covers ${micros}`);
    expect(error.message).toBe('covers 1500');
  });
});

describe('an organization\'s refusals (D29)', () => {
  it('names the organization\'s funding when its balance is short, and only then', () => {
    const short = holdFailureError({ reason: 'insufficient_org_credits', organizationId: 'org-1', availableMicros: 5, neededMicros: 10, fundToken: 'tok' });
    expect(short.options.funding).toEqual({ fundToken: 'tok', availableMicros: 5, requiredMicros: 10, organizationId: 'org-1' });
    const capped = holdFailureError({ reason: 'member_cap_exceeded', organizationId: 'org-1', remainingMicros: 5, neededMicros: 10, capMicros: 100, retryAfterSeconds: 3600, fundToken: 'tok' });
    expect(capped.options.funding).toBeUndefined();
    expect(capped.headers()['Retry-After']).toBe('3600');
  });
});
