import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { getResponse, MAX_STORED_BYTES, putResponse, RESPONSE_RETENTION_MS, sweepResponses, type StoredResponse } from './store';

const DAY = 86_400_000;
const stored = (id: string, storedAt: number, extra = ''): StoredResponse => ({
  response: { id, object: 'response', status: 'completed', output: [], note: extra },
  input: [{ id: 'msg_1', type: 'message', role: 'user', content: 'hi' }],
  keyHash: 'hash',
  storedAt,
});

describe('the stored responses', () => {
  it('reads back what it stored, for its account only, and not past its 30 days', async () => {
    const now = Date.now();
    const account = `acct_store_${crypto.randomUUID()}`;
    expect(await putResponse(env.MEDIA, account, stored('resp_a1', now))).toBe(true);
    expect(await getResponse(env.MEDIA, account, 'resp_a1', now)).toMatchObject({ response: { id: 'resp_a1' }, keyHash: 'hash' });
    expect(await getResponse(env.MEDIA, 'acct_other', 'resp_a1', now)).toBeNull();
    expect(await getResponse(env.MEDIA, account, 'resp_a1', now + RESPONSE_RETENTION_MS + 1)).toBeNull();
    // Ids that could leave the account's prefix are never keys.
    expect(await getResponse(env.MEDIA, account, 'resp_../x', now)).toBeNull();
  });

  it(`skips a response over ${MAX_STORED_BYTES / 1024 / 1024} MiB`, async () => {
    const account = `acct_store_${crypto.randomUUID()}`;
    expect(await putResponse(env.MEDIA, account, stored('resp_big', Date.now(), 'x'.repeat(MAX_STORED_BYTES)))).toBe(false);
    expect(await getResponse(env.MEDIA, account, 'resp_big', Date.now())).toBeNull();
  });

  it('sweeps the responses stored more than 30 days ago, oldest first, and keeps the rest', async () => {
    const now = Date.UTC(2030, 5, 15, 12);
    const account = `acct_store_${crypto.randomUUID()}`;
    await putResponse(env.MEDIA, account, stored('resp_old', now - 40 * DAY));
    await putResponse(env.MEDIA, account, stored('resp_recent', now - 20 * DAY));
    expect(await sweepResponses(env.MEDIA, now)).toBeGreaterThanOrEqual(1);
    expect(await env.MEDIA.get(`responses/${account}/resp_old`)).toBeNull();
    expect(await env.MEDIA.get(`responses/${account}/resp_recent`)).not.toBeNull();
    expect((await env.MEDIA.list({ prefix: 'responses-by-day/' })).objects.some((object) => object.key.endsWith(`${account}/resp_old`))).toBe(false);
  });
});
