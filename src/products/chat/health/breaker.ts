/**
 * One route's circuit breaker (D34, issue 39): pure state and its transitions, applied alike by an
 * isolate's table (`route-health.ts`) and by the provider's health Durable Object, which is the
 * state every isolate converges on.
 *
 * closed: served; failures are counted in a sliding window, and a success starts the count again.
 * `failures` of them in a row within `windowMs` open it for `coolDownMs` (or the upstream's
 * `Retry-After`, up to `maxCoolDownMs`): skipped. In a row, because at a thousand requests a second
 * a plain count in the window would open on a provider failing one request in ten thousand.
 * After the cool-down it is half-open: one request (the probe) is let through while others keep
 * skipping it; the probe's success closes it, its failure opens it again.
 */

/** A route's breaker thresholds, from the environment (`breakerConfig`). */
export interface BreakerConfig {
  failures: number;
  windowMs: number;
  coolDownMs: number;
  /** The most an upstream's `Retry-After` may set the cool-down to. */
  maxCoolDownMs: number;
}

export interface RouteHealth {
  /** When the failures still in the window happened (oldest first, at most `failures` of them). */
  failedAt: number[];
  /** 0: closed. Else open until then, half-open after. */
  openUntil: number;
  /** Half-open: a probe is out until then (a probe whose isolate died frees the slot at this time). */
  probeUntil: number;
}

export type RouteStatus = 'ok' | 'degraded' | 'down';

/** N=3 failures in W=30 s: a provider failing one request in ten at 1 request/s would rarely trip it; one that is down trips on its third request. */
export const DEFAULT_BREAKER: BreakerConfig = { failures: 3, windowMs: 30_000, coolDownMs: 30_000, maxCoolDownMs: 600_000 };

const number = (raw: string | undefined, fallback: number) => (raw === undefined || raw.trim() === '' || !Number.isFinite(Number(raw)) ? fallback : Math.max(0, Number(raw)));

/** The thresholds `ROUTE_BREAKER_*` set; null when the breaker is off (`ROUTE_BREAKER_FAILURES=0`). */
export function breakerConfig(env: Env): BreakerConfig | null {
  const failures = Math.floor(number(env.ROUTE_BREAKER_FAILURES, DEFAULT_BREAKER.failures));
  if (failures === 0) return null;
  return {
    failures,
    windowMs: number(env.ROUTE_BREAKER_WINDOW_MS, DEFAULT_BREAKER.windowMs),
    coolDownMs: number(env.ROUTE_BREAKER_COOLDOWN_MS, DEFAULT_BREAKER.coolDownMs),
    maxCoolDownMs: number(env.ROUTE_BREAKER_MAX_COOLDOWN_MS, DEFAULT_BREAKER.maxCoolDownMs),
  };
}

export const CLOSED: RouteHealth = { failedAt: [], openUntil: 0, probeUntil: 0 };

/** A failure of the kinds that fail over (5xx, 429, timeout, refused, 401/402/403) at `now`. */
export function afterFailure(health: RouteHealth, config: BreakerConfig, now: number, retryAfterMs?: number): RouteHealth {
  const coolDown = retryAfterMs === undefined ? config.coolDownMs : Math.min(retryAfterMs, config.maxCoolDownMs);
  // Open or half-open (a probe, or a last resort tried while open): open again from now.
  if (health.openUntil > 0) return { failedAt: [], openUntil: now + coolDown, probeUntil: 0 };
  const failedAt = [...health.failedAt.filter((at) => at > now - config.windowMs), now].slice(-config.failures);
  if (failedAt.length >= config.failures) return { failedAt: [], openUntil: now + coolDown, probeUntil: 0 };
  return { ...health, failedAt };
}

/** An answer from the route: closes it (a probe's, or a last resort's while open), and a closed route's count starts again. */
export function afterSuccess(): RouteHealth {
  return CLOSED;
}

/** Whether a success changes anything: the route is open, half-open, or has failures counted. */
export function successMatters(health: RouteHealth | undefined): boolean {
  return health !== undefined && (health.openUntil > 0 || health.failedAt.length > 0);
}

/** What a request does with the route now: call it, skip it, or probe it (half-open, no probe out). */
export function verdict(health: RouteHealth, now: number): 'call' | 'skip' | 'probe' {
  if (health.openUntil === 0) return 'call';
  if (now < health.openUntil || now < health.probeUntil) return 'skip';
  return 'probe';
}

/** The probe slot taken until `now + leaseMs`. */
export function withProbe(health: RouteHealth, now: number, leaseMs: number): RouteHealth {
  return { ...health, probeUntil: now + leaseMs };
}

/** The probe slot given back by a probe that ended without a verdict (its client left, a 400): the next request probes. */
export function withoutProbe(health: RouteHealth): RouteHealth {
  return { ...health, probeUntil: 0 };
}

/** `/v1/models`'s status: `down` while open, `degraded` half-open or with failures in the window, else `ok`. */
export function statusOf(health: RouteHealth | undefined, config: BreakerConfig, now: number): RouteStatus {
  if (!health) return 'ok';
  if (health.openUntil > now) return 'down';
  if (health.openUntil > 0 || health.failedAt.some((at) => at > now - config.windowMs)) return 'degraded';
  return 'ok';
}
