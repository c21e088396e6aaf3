import { describe, expect, it } from 'vitest';
import { WRONG_CODES_PER_IP_PER_HOUR } from '../../src/human/limits';
import { SIGN_IN_CHALLENGES_PER_IP_PER_HOUR } from '../../src/pages/signin/handlers';
import { agentWithClaim, pageErrorCode, Visitor } from './claim-helpers';
import { expectError } from './helpers';

/**
 * The pages' per-IP limits against a caller who sends each request from another address of its
 * IPv6 /64: the sign-in challenges and the wrong claim codes count the /64 as one address.
 */

/** A browser whose every request leaves from the next address of one /64 (`::1`, `::2`, ...). */
class RoamingVisitor extends Visitor {
  #host = 0;

  constructor(readonly net = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`) {
    super(`${net}::1`);
  }

  override headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...super.headers(extra), 'CF-Connecting-IP': `${this.net}::${(++this.#host).toString(16)}` };
  }
}

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('per-IP page limits over one IPv6 /64', { timeout: 30_000 }, () => {
  it(`hands one /64 at most ${SIGN_IN_CHALLENGES_PER_IP_PER_HOUR} sign-in challenges an hour, whichever of its addresses asks`, async () => {
    const visitor = new RoamingVisitor();
    await visitor.get('/signin');
    for (let i = 0; i < SIGN_IN_CHALLENGES_PER_IP_PER_HOUR; i++) expect((await visitor.postJson('/signin/options', {})).status).toBe(200);
    const limited = await visitor.postJson('/signin/options', {});
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    await expectError(limited, 429, 'rate_limit_exceeded', 'rate_limit_error');
    // The next /64 is another address.
    const neighbour = new RoamingVisitor();
    await neighbour.get('/signin');
    expect((await neighbour.postJson('/signin/options', {})).status).toBe(200);
  });

  it(`refuses one /64 its ${WRONG_CODES_PER_IP_PER_HOUR}th wrong claim code in an hour, whichever of its addresses sends it`, async () => {
    const visitor = new RoamingVisitor();
    const claims = await Promise.all([agentWithClaim(), agentWithClaim(), agentWithClaim()]);
    const statuses: number[] = [];
    for (const [index, count] of [4, 4, 2].entries()) {
      const { path, init } = claims[index]!;
      await visitor.get(path);
      for (let i = 0; i < count; i++) statuses.push((await visitor.post(path, { code: wrongCode(init.user_code) })).res.status);
    }
    expect(statuses).toEqual([...Array<number>(WRONG_CODES_PER_IP_PER_HOUR - 1).fill(400), 429]);
    const third = claims[2]!;
    const refused = await visitor.post(third.path, { code: third.init.user_code });
    expect(refused.res.status).toBe(429);
    expect(pageErrorCode(refused.html)).toBe('claim_attempts_exceeded');
  });
});
