import { describe, expect, it } from 'vitest';
import { afterFailure, afterSuccess, breakerConfig, CLOSED, statusOf, successMatters, verdict, withProbe, type BreakerConfig } from './breaker';

const config: BreakerConfig = { failures: 3, windowMs: 30_000, coolDownMs: 30_000, maxCoolDownMs: 600_000 };
const failTimes = (times: number[]) => times.reduce((health, at) => afterFailure(health, config, at), CLOSED);

describe('a route breaker', () => {
  it('opens on the Nth failure within the window, for the cool-down', () => {
    const open = failTimes([0, 10_000, 20_000]);
    expect(open.openUntil).toBe(50_000);
    expect(verdict(open, 49_999)).toBe('skip');
    expect(verdict(open, 50_000)).toBe('probe');
  });

  it('counts failures in a row: a success starts the count again', () => {
    const twice = failTimes([0, 1]);
    expect(afterFailure(afterSuccess(), config, 2)).toEqual({ failedAt: [2], openUntil: 0, probeUntil: 0 });
  });

  it('forgets failures older than the window', () => {
    const health = failTimes([0, 15_000, 40_001]);
    expect(health.openUntil).toBe(0);
    expect(health.failedAt).toEqual([15_000, 40_001]);
  });

  it("takes the upstream's Retry-After as the cool-down, capped", () => {
    const twice = failTimes([0, 1]);
    expect(afterFailure(twice, config, 2, 5_000).openUntil).toBe(5_002);
    expect(afterFailure(twice, config, 2, 3_600_000).openUntil).toBe(600_002);
  });

  it('half-open: the probe slot skips others until it ends; a success closes, a failure opens again', () => {
    const half = withProbe(failTimes([0, 1, 2]), 30_002, 1_000);
    expect(verdict(half, 30_500)).toBe('skip');
    expect(verdict(half, 31_002)).toBe('probe');
    expect(afterSuccess()).toEqual(CLOSED);
    expect(afterFailure(half, config, 30_600).openUntil).toBe(60_600);
  });

  it('a success matters only to a route with failures counted, or not closed', () => {
    expect(successMatters(undefined)).toBe(false);
    expect(successMatters(CLOSED)).toBe(false);
    expect(successMatters(failTimes([0]))).toBe(true);
    expect(successMatters(failTimes([0, 1, 2]))).toBe(true);
  });

  it('reads ok, degraded, down', () => {
    expect(statusOf(undefined, config, 0)).toBe('ok');
    expect(statusOf(failTimes([0]), config, 1)).toBe('degraded');
    expect(statusOf(failTimes([0]), config, 30_001)).toBe('ok');
    expect(statusOf(failTimes([0, 1, 2]), config, 3)).toBe('down');
    expect(statusOf(failTimes([0, 1, 2]), config, 30_002)).toBe('degraded');
  });

  it.each([
    [{}, { failures: 3, windowMs: 30_000, coolDownMs: 30_000, maxCoolDownMs: 600_000 }],
    [{ ROUTE_BREAKER_FAILURES: '', ROUTE_BREAKER_COOLDOWN_MS: '1000' }, { failures: 3, windowMs: 30_000, coolDownMs: 1_000, maxCoolDownMs: 600_000 }],
    [{ ROUTE_BREAKER_FAILURES: '0' }, null],
  ])('reads its thresholds from the environment (%j)', (vars, expected) => {
    expect(breakerConfig(vars as Env)).toEqual(expected);
  });
});
