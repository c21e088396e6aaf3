import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { BreakerConfig } from '../../src/products/chat/health/breaker';

/**
 * The provider's `RouteHealthDurableObject` as isolates share it (issue 39): the public API tests
 * run in one isolate, so what several isolates see is checked here, each caller standing for an
 * isolate. Each test asks an object of its own.
 */
const config: BreakerConfig = { failures: 2, windowMs: 60_000, coolDownMs: 1_000, maxCoolDownMs: 2_000 };
const object = () => env.ROUTE_HEALTH.get(env.ROUTE_HEALTH.idFromName(`test-${crypto.randomUUID()}`));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fail = { upstreamId: 'model-a', outcome: 'failure' } as const;

describe('the route health object', () => {
  it('adds up the failures two isolates report: together they open the route', async () => {
    const health = object();
    expect((await health.report([fail], config))['model-a']?.openUntil).toBe(0);
    const view = await health.report([fail], config);
    expect(view['model-a']?.openUntil).toBeGreaterThan(Date.now());
  });

  it('grants the half-open probe to one caller; the others are refused until it reports', async () => {
    const health = object();
    await health.report([fail, fail], config);
    expect((await health.claimProbe('model-a', 60_000)).granted).toBe(false); // still open
    await sleep(1100);
    expect((await health.claimProbe('model-a', 60_000)).granted).toBe(true);
    expect((await health.claimProbe('model-a', 60_000)).granted).toBe(false);
    // The probe's success closes the route: nothing is left to store.
    expect(await health.report([{ upstreamId: 'model-a', outcome: 'success' }], config)).toEqual({});
  });

  it('gives the slot back on a release, and frees it when its lease ends (a probe whose isolate died)', async () => {
    const health = object();
    await health.report([fail, fail], config);
    await sleep(1100);
    expect((await health.claimProbe('model-a', 60_000)).granted).toBe(true);
    await health.report([{ upstreamId: 'model-a', outcome: 'release' }], config);
    expect((await health.claimProbe('model-a', 300)).granted).toBe(true);
    await sleep(400);
    expect((await health.claimProbe('model-a', 300)).granted).toBe(true);
  });
});
