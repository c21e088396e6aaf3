import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { database } from '../../src/db';
import { insertChallenge } from '../../src/db/passkeys';
import { expireAccount } from '../../src/accounts/expiry';
import { sweepHumanRecords } from '../../src/cron/human-records';
import { approveClaim } from '../../src/human/claims';
import { agentWithClaim } from './claim-helpers';

const DAY = 86_400_000;

const count = async (query: string, ...bindings: unknown[]) => ((await env.DB.prepare(query).bind(...bindings).first<{ n: number }>())?.n ?? 0);

describe('what claims and sign-ins leave behind', () => {
  it('goes with an expired account: its unfinished claims are deleted', async () => {
    const { agent } = await agentWithClaim();
    expect(await count('SELECT COUNT(*) AS n FROM claims WHERE account_id = ?', agent.account_id)).toBe(1);
    await expireAccount(env, { kind: 'account.expire', accountId: agent.account_id, now: Date.now() + 31 * DAY });
    expect(await count('SELECT COUNT(*) AS n FROM claims WHERE account_id = ?', agent.account_id)).toBe(0);
  });

  it('is swept a day after it ended, except the approved claim that records who claimed', async () => {
    const [ended, approved] = await Promise.all([agentWithClaim(), agentWithClaim()]);
    expect(await approveClaim(env, approved.claimId, Date.now())).toBe(true);
    const challenge = `test-${crypto.randomUUID()}`;
    await insertChallenge(database(env), { challenge, purpose: 'signin', claimId: null, createdAt: Date.now(), expiresAt: Date.now() + 60_000 });

    await sweepHumanRecords(env, Date.now() + 0.5 * DAY);
    expect(await count('SELECT COUNT(*) AS n FROM claims WHERE id = ?', ended.claimId)).toBe(1);

    await sweepHumanRecords(env, Date.now() + 2 * DAY);
    expect(await count('SELECT COUNT(*) AS n FROM claims WHERE id = ?', ended.claimId)).toBe(0);
    expect(await count('SELECT COUNT(*) AS n FROM claims WHERE id = ?', approved.claimId)).toBe(1);
    expect(await count('SELECT COUNT(*) AS n FROM passkey_challenges WHERE challenge = ?', challenge)).toBe(0);
  });
});
