import { DurableObject } from 'cloudflare:workers';
import { afterFailure, afterSuccess, CLOSED, verdict, withoutProbe, withProbe, type BreakerConfig, type RouteHealth } from '../../src/products/chat/health/breaker';

/** One provider's routes by upstream model id: those not closed or with failures in their window (absent: closed, clean). */
export type HealthView = Record<string, RouteHealth>;

/** What an isolate saw of one call to a route. */
export interface HealthEvent {
  upstreamId: string;
  /** `release`: a probe that ended without a verdict gives its slot back. */
  outcome: 'failure' | 'success' | 'release';
  /** The upstream's `Retry-After`, in ms. */
  retryAfterMs?: number;
}

/**
 * One provider's route health (`idFromName(provider)`, issue 39): the breaker state every isolate
 * converges on. Isolates keep their own copy and consult it synchronously; they call here only
 * off a healthy request's path (a failure's report, a refresh at most every few seconds, both in
 * `waitUntil`) or for a half-open route's one probe, granted here so that one request across all
 * isolates probes it. Sharded by provider, so an outage of one provider (every request failing
 * and reporting) loads only its own object. Kept in memory and in storage (a few rows per
 * provider), so an eviction forgets nothing.
 */
export class RouteHealthDurableObject extends DurableObject<Env> {
  #routes = new Map<string, RouteHealth>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      for (const [upstreamId, health] of await ctx.storage.list<RouteHealth>()) this.#routes.set(upstreamId, health);
    });
  }

  /** Applies an isolate's observations; the provider's state after them. */
  async report(events: HealthEvent[], config: BreakerConfig): Promise<HealthView> {
    const now = Date.now();
    for (const event of events) {
      const health = this.#routes.get(event.upstreamId) ?? CLOSED;
      const after = event.outcome === 'failure' ? afterFailure(health, config, now, event.retryAfterMs) : event.outcome === 'success' ? afterSuccess() : withoutProbe(health);
      await this.#store(event.upstreamId, after, config, now);
    }
    return this.view(config);
  }

  /** The provider's state, routes whose failures all aged out dropped. */
  async view(config?: BreakerConfig): Promise<HealthView> {
    const now = Date.now();
    const view: HealthView = {};
    for (const [upstreamId, health] of this.#routes) {
      if (config && health.openUntil === 0 && health.failedAt.every((at) => at <= now - config.windowMs)) await this.#store(upstreamId, CLOSED, config, now);
      else view[upstreamId] = health;
    }
    return view;
  }

  /** The half-open route's probe slot, for `leaseMs`: granted to one caller until the probe reports (or the lease ends). */
  async claimProbe(upstreamId: string, leaseMs: number): Promise<{ granted: boolean; view: HealthView }> {
    const now = Date.now();
    const health = this.#routes.get(upstreamId) ?? CLOSED;
    const granted = verdict(health, now) === 'probe';
    if (granted) {
      const probing = withProbe(health, now, leaseMs);
      this.#routes.set(upstreamId, probing);
      await this.ctx.storage.put(upstreamId, probing);
    }
    return { granted, view: await this.view() };
  }

  async #store(upstreamId: string, health: RouteHealth, config: BreakerConfig, now: number): Promise<void> {
    const clean = health.openUntil === 0 && health.failedAt.every((at) => at <= now - config.windowMs);
    if (clean) {
      if (this.#routes.delete(upstreamId)) await this.ctx.storage.delete(upstreamId);
      return;
    }
    this.#routes.set(upstreamId, health);
    await this.ctx.storage.put(upstreamId, health);
  }
}
