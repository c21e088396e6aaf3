import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { AccountClient } from '../../src/accounts/account-client';
import { sha256Hex } from '../../src/accounts/credentials';
import { createApp } from '../../src/app';
import { accountStub, ADMIN_TOKEN, adminCredit, call, json, register } from './helpers';

/**
 * Speculative dispatch (D21) with the account's Durable Object made distant: every call to it
 * waits `DISTANT_MS` first, as a round trip to another continent would. The upstream is a local
 * OpenAI chat server; `GET /__recorded` tells when each request reached it and whether the gateway
 * hung up on it. The money must stay exact whatever arrives first.
 */

const DISTANT_MS = 400;
const chatUrl = inject('chatUpstreamUrl');
const app = createApp();

interface Recorded {
  path: string;
  body: { messages?: { content?: string }[] };
  receivedAt: number;
  abortedBeforeEnd?: true;
}

/** The real account namespace, each call to a stub delayed (nothing else changed). */
function distant(delayMs: number): DurableObjectNamespace {
  return {
    idFromName: (name: string) => env.ACCOUNT.idFromName(name),
    get: (id: DurableObjectId) => {
      const stub = env.ACCOUNT.get(id);
      return new Proxy(stub, {
        get(target, prop) {
          const member = Reflect.get(target, prop);
          if (typeof member !== 'function') return member;
          // Called as a method of the stub (an RPC method's own `.apply` would be a remote call).
          const methods = target as unknown as Record<string | symbol, (...args: unknown[]) => unknown>;
          return async (...args: unknown[]) => {
            await new Promise((resolve) => setTimeout(resolve, delayMs));
            return methods[prop]!(...args);
          };
        },
      });
    },
  } as unknown as DurableObjectNamespace;
}

const gatewayEnv = { ...env, OPENAI_API_KEY: 'sk-speculative', OPENAI_BASE_URL: `${chatUrl}/v1`, ACCOUNT: distant(DISTANT_MS) } as unknown as Env;

async function chat(apiKey: string, content: string, extra: Record<string, unknown> = {}) {
  const ctx = createExecutionContext();
  const started = Date.now();
  const res = await app.fetch(
    new Request('https://gateway.test/v1/chat/completions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', max_tokens: 50, messages: [{ role: 'user', content }], ...extra }),
    }),
    gatewayEnv,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, text, started };
}

async function recorded(content: string): Promise<Recorded[]> {
  const all = (await (await fetch(`${chatUrl}/__recorded`)).json()) as Recorded[];
  return all.filter((request) => request.body.messages?.at(-1)?.content === content);
}

async function agent(usd: string) {
  const registered = await register();
  if (usd !== '0') expect((await adminCredit(registered.account_id, usd)).status).toBe(200);
  return { apiKey: registered.api_key, accountId: registered.account_id, stub: accountStub(registered.account_id) };
}

const unique = (words: string) => `${words} ${crypto.randomUUID()}`;

/**
 * The account once every settlement has landed: a distant account's go through the journal near
 * the Worker, which carries them there shortly after the answers (docs/contributors/money.md, "Durable near the Worker when the account is far").
 */
/** Once no hold is open (a member's idle hold pool goes back to its organization after POOL_IDLE_MS). */
async function settled(stub: ReturnType<typeof accountStub>) {
  let snapshot = await stub.snapshot();
  for (let i = 0; i < 300 && snapshot.heldMicros > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    snapshot = await stub.snapshot();
  }
  expect(snapshot.heldMicros).toBe(0);
  return snapshot;
}

describe('speculative dispatch (D21) with a distant account', () => {
  it('keeps the strict order on a cold isolate, then calls the upstream at the same time as the hold', async () => {
    const { apiKey } = await agent('5');
    const first = unique('Hi');
    const cold = await chat(apiKey, first);
    expect(cold.res.status).toBe(200);
    // No evidence yet: the upstream was called only after the hold came back.
    expect((await recorded(first))[0]!.receivedAt - cold.started).toBeGreaterThanOrEqual(DISTANT_MS - 50);

    const second = unique('Hi');
    const warm = await chat(apiKey, second);
    expect(warm.res.status).toBe(200);
    // Fresh evidence: the upstream heard from us long before the distant hold could have answered.
    expect((await recorded(second))[0]!.receivedAt - warm.started).toBeLessThan(DISTANT_MS / 2);
    expect(warm.res.headers.get('x-service-cost')).toMatch(/^0\.\d{6}$/);
  });

  it('refuses a key revoked a moment ago, aborting its upstream request, with no content', async () => {
    const { apiKey, stub } = await agent('5');
    expect((await chat(apiKey, unique('Hi'))).res.status).toBe(200);
    const balance = (await settled(stub)).balanceMicros;
    const [key] = await stub.keys();
    await stub.updateKey(key!.id, { revoked: true });

    const slow = unique('Count [slow]');
    const refused = await chat(apiKey, slow);
    expect(refused.res.status).toBe(401);
    expect(JSON.parse(refused.text)).toMatchObject({ error: { code: 'api_key_revoked' } });
    expect(refused.text).not.toContain('choices');
    const [sent] = await recorded(slow);
    expect(sent, 'the request went upstream early').toBeDefined();
    // The hang-up reaches the upstream's socket a moment after the refusal.
    let aborted = sent!.abortedBeforeEnd;
    for (let i = 0; i < 40 && !aborted; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      aborted = (await recorded(slow))[0]!.abortedBeforeEnd;
    }
    expect(aborted).toBe(true);
    expect((await stub.snapshot()).balanceMicros).toBe(balance);
  });

  it('never sends a chat early for a key whose hold was granted on another route only (D27 allowed_routes)', async () => {
    const { apiKey, accountId, stub } = await agent('5');
    const [key] = await stub.keys();
    await stub.updateKey(key!.id, { allowedRoutes: ['web'] });
    // A web hold granted to the key in this isolate, as a scrape makes it.
    const client = new AccountClient(gatewayEnv, accountId);
    const hold = await client.authorizeHold({ keyHash: await sha256Hex(apiKey), route: 'web', minMicros: 1000, maxMicros: 1000, purpose: 'scrape' });
    expect(hold.ok).toBe(true);

    const content = unique('Hi');
    const refused = await chat(apiKey, content);
    expect(refused.res.status).toBe(403);
    expect(JSON.parse(refused.text)).toMatchObject({ error: { code: 'guardrail_blocked' } });
    expect(await recorded(content), 'nothing went upstream').toEqual([]);
    if (hold.ok) await client.release(hold.holdId);
  });

  it('lets a key limit below the worst case lower the cap as the strict order would, then stops speculating for that key', async () => {
    const { apiKey, stub } = await agent('5');
    const open = { max_tokens: undefined }; // the worst case is the model's whole output cap, about $0.01
    expect((await chat(apiKey, unique('Hi'), open)).res.status).toBe(200); // the evidence: $5 available
    await settled(stub);
    const [key] = await stub.keys();
    await stub.updateKey(key!.id, { dailyLimitMicros: 5_000 });

    // Sent early on the evidence; the full worst case is over the limit, a smaller hold is not.
    const limited = unique('Hi');
    const served = await chat(apiKey, limited, open);
    expect(served.res.status, served.text).toBe(200);
    // The early request (its answer discarded), then the strict order's, capped to what the limit holds.
    const sent = (await recorded(limited)) as (Recorded & { body: { max_completion_tokens?: number } })[];
    expect(sent.map((request) => request.body.max_completion_tokens)).toEqual([undefined, expect.any(Number)]);
    expect(sent[1]!.body.max_completion_tokens!).toBeLessThan(16_384);

    // The key's headroom is now the evidence: far below four times the worst case, so strict order.
    const next = unique('Hi');
    const strict = await chat(apiKey, next, open);
    expect(strict.res.status).toBe(200);
    expect((await recorded(next))[0]!.receivedAt - strict.started).toBeGreaterThanOrEqual(DISTANT_MS - 50);
    expect((await settled(stub)).balanceMicros).toBeGreaterThan(0);
  });

  it('sends nothing upstream for an account without money', async () => {
    const { apiKey } = await agent('0');
    const content = unique('Hi');
    expect((await chat(apiKey, content)).res.status).toBe(402);
    expect((await chat(apiKey, content)).res.status).toBe(402);
    expect(await recorded(content)).toEqual([]);
  });

  it('serves every request the balance covers when many arrive at once, and charges exactly', async () => {
    const { apiKey, stub } = await agent('0.05');
    expect((await chat(apiKey, unique('Hi'))).res.status).toBe(200); // the evidence
    const before = await settled(stub);
    const results = await Promise.all(Array.from({ length: 60 }, () => chat(apiKey, unique('Hi'), { max_tokens: 2000 })));
    const served = results.filter((r) => r.res.status === 200);
    const refused = results.filter((r) => r.res.status === 402);
    expect(served.length + refused.length).toBe(60);

    const after = await settled(stub);
    const ledger = await stub.ledgerEntries(500);
    // Every request of the burst holds the same worst case (max_tokens 2000), the largest hold of all.
    const worstCase = Math.max(...ledger.filter((row) => row.kind === 'hold').map((row) => Math.abs(row.amountMicros)));
    // Holds are all-or-nothing here (max_tokens given): at least what the balance covered at once
    // was served, more when early settlements (journaled, so undelayed) freed money for late holds,
    // and never more than the balance could hold at any moment (no charge without its hold).
    expect(served.length).toBeGreaterThanOrEqual(Math.floor(before.balanceMicros / worstCase));
    expect(ledger.filter((row) => row.kind === 'hold' && Math.abs(row.amountMicros) === worstCase)).toHaveLength(served.length);
    const told = served.reduce((sum, r) => sum + Math.round(Number(r.res.headers.get('x-service-cost')) * 1e6), 0);
    expect(before.balanceMicros - after.balanceMicros).toBe(told);
    expect(after.balanceMicros).toBeGreaterThanOrEqual(0);
    const charges = ledger.filter((row) => row.kind === 'charge');
    expect(charges).toHaveLength(served.length + 1); // and the first request's, the evidence
    expect(new Set(charges.map((row) => row.holdId)).size).toBe(charges.length);
  });

  it("sends an organization member's chat upstream at the same time as its hold once the isolate has evidence, and charges the organization", async () => {
    // D29: the member's hold is Worker -> member's object -> organization's; D21 must hide it as for anyone.
    const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };
    const created = await call('/admin/organizations', json({ name: 'speculative fleet' }, admin));
    expect(created.status).toBe(201);
    const { organization_id: organizationId } = (await created.json()) as { organization_id: string };
    expect((await adminCredit(organizationId, '5')).status).toBe(200);
    const invited = await call(`/admin/organizations/${organizationId}/invites`, json({ auto_approve: true, member_cap_usd: '5' }, admin));
    const { invite_code: inviteCode } = (await invited.json()) as { invite_code: string };
    const member = await agent('0');
    const joined = await call('/agent/org/join', json({ invite_code: inviteCode }, { Authorization: `Bearer ${member.apiKey}` }));
    expect(await joined.json()).toMatchObject({ organization_id: organizationId, status: 'active' });
    const org = accountStub(organizationId);
    const before = await org.snapshot();

    const first = unique('Hi');
    const cold = await chat(member.apiKey, first);
    expect(cold.res.status).toBe(200);
    expect((await recorded(first))[0]!.receivedAt - cold.started).toBeGreaterThanOrEqual(DISTANT_MS - 50);
    const second = unique('Hi');
    const warm = await chat(member.apiKey, second);
    expect(warm.res.status).toBe(200);
    expect((await recorded(second))[0]!.receivedAt - warm.started).toBeLessThan(DISTANT_MS / 2);

    const costs = [cold, warm].map(({ res }) => Math.round(Number(res.headers.get('x-service-cost')) * 1e6));
    expect(costs.every((cost) => cost > 0)).toBe(true);
    expect(before.balanceMicros - (await settled(org)).balanceMicros).toBe(costs[0]! + costs[1]!);
    expect((await member.stub.snapshot()).balanceMicros).toBe(0);
  }, 30_000);

  it('charges once when the upstream answers before the hold is confirmed', async () => {
    const { apiKey, stub } = await agent('5');
    expect((await chat(apiKey, unique('Hi'))).res.status).toBe(200);
    const content = unique('Hi');
    const { res, started } = await chat(apiKey, content);
    expect(res.status).toBe(200);
    // The answer came back within a few ms; the hold took DISTANT_MS.
    expect((await recorded(content))[0]!.receivedAt - started).toBeLessThan(DISTANT_MS / 2);
    const requestId = res.headers.get('x-service-request-id');
    await settled(stub);
    const rows = (await stub.ledgerEntries(50)).filter((row) => row.requestId === requestId);
    expect(rows.map((row) => row.kind).sort()).toEqual(['charge', 'hold', 'release']);
    expect(-rows.find((row) => row.kind === 'charge')!.amountMicros).toBe(Math.round(Number(res.headers.get('x-service-cost')) * 1e6));
  });
});

