import type { HealthEvent, HealthView } from '../../../../durable-objects/route-health/route-health';
import type { ChatRoute } from '../../../catalog/types';
import type { ProviderId } from '../../../providers/ids';
import { afterFailure, afterSuccess, breakerConfig, CLOSED, statusOf, successMatters, verdict, withoutProbe, withProbe, type BreakerConfig, type RouteHealth, type RouteStatus } from './breaker';

/**
 * Route health as this isolate sees it (issue 39, D34). Design: a module-level table, consulted
 * synchronously by every chat request (a Map lookup per attempt: the healthy path makes no
 * Durable Object or D1 call). Failures, and the success of a route that had failures counted or
 * was not closed, are applied here at once and reported to the provider's
 * `RouteHealthDurableObject` in `waitUntil`, whose reply (the provider's state from every
 * isolate) replaces this isolate's copy. A request also refreshes the copy of its providers at
 * most every `REFRESH_MS`, in `waitUntil`. So another isolate's open breaker is seen within
 * seconds, a route's own failures at once. Only a half-open route's probe waits for the object:
 * it grants the slot to one request across isolates (isolate-local slots would let every isolate
 * send a probe, each paying a hanging provider's timeout).
 */
const table = new Map<ProviderId, Map<string, RouteHealth>>();
const refreshedAt = new Map<ProviderId, number>();
/** When this isolate last changed a provider's routes itself: an object's answer to an older question is not taken over it. */
const changedAt = new Map<ProviderId, number>();

/** How stale an isolate's copy of a provider's routes may get while it serves requests to them. */
export const REFRESH_MS = 5_000;

/** One chat request's view of route health, and its reports. */
export interface RouteHealthSession {
  /**
   * The attempts in the order they are tried: routes that are open (or half-open with a probe out)
   * move after every other attempt, in their order, so they are tried only when nothing else
   * served (never a servable request turned into a failure). A half-open route that would be
   * called first takes the probe slot (`leaseMs`) from the provider's object; denied, it moves too.
   */
  order<T extends { route: ChatRoute }>(attempts: T[], leaseMs: number): Promise<T[]>;
  /** A call failed in a way that fails over (not a 400, not a client that left). */
  failed(route: ChatRoute, retryAfterMs?: number): void;
  /** A call answered. */
  served(route: ChatRoute): void;
  /** The request is done: a probe slot it took and gave no verdict for (its client left, a 400) is given back. */
  release(): void;
}

/**
 * Where an isolate reports: the provider's object for its data center (`colo`), so no object
 * takes every isolate of the world's refreshes (one per provider per 5 s each); an isolate serves
 * one data center, so its table and its object see the same traffic. Without a colo (local
 * runtimes, tests), one object per provider.
 */
export type HealthPlace = { env: Env; colo: unknown };
const stubOf = ({ env, colo }: HealthPlace, provider: ProviderId) => env.ROUTE_HEALTH.get(env.ROUTE_HEALTH.idFromName(typeof colo === 'string' && colo ? `${provider}@${colo}` : provider));
const healthOf = (route: ChatRoute) => table.get(route.provider)?.get(route.upstreamId);

function setHealth(route: ChatRoute, health: RouteHealth): void {
  let routes = table.get(route.provider);
  if (!routes) table.set(route.provider, (routes = new Map()));
  routes.set(route.upstreamId, health);
  changedAt.set(route.provider, Date.now());
}

/**
 * The provider's object's state, asked at `askedAt`, replaces this isolate's copy, unless the
 * isolate changed it since (a refresh that was under way when a failure was applied and reported:
 * the report's own answer follows).
 */
function merge(provider: ProviderId, view: HealthView, askedAt: number): void {
  if (askedAt < (changedAt.get(provider) ?? 0)) return;
  table.set(provider, new Map(Object.entries(view)));
  refreshedAt.set(provider, Date.now());
}

type WaitUntil = (work: Promise<unknown>) => void;

/** Asks a provider's object and merges its answer, in `waitUntil`; one that fails leaves the isolate's own copy in charge. */
function sync(provider: ProviderId, ask: () => Promise<HealthView>, waitUntil: WaitUntil): void {
  const askedAt = Date.now();
  waitUntil(ask().then((view) => merge(provider, view, askedAt)).catch(() => undefined));
}

/** Refreshes this isolate's copy of each provider's routes not refreshed within `REFRESH_MS`, after the answer (`waitUntil`). */
function refresh(place: HealthPlace, config: BreakerConfig, providers: Iterable<ProviderId>, waitUntil: WaitUntil): void {
  const now = Date.now();
  for (const provider of new Set(providers)) {
    if (now - (refreshedAt.get(provider) ?? 0) < REFRESH_MS) continue;
    refreshedAt.set(provider, now);
    sync(provider, () => stubOf(place, provider).view(config), waitUntil);
  }
}

/** `/v1/models`: its providers' copies refreshed for the next listing (an isolate that serves no chat hears of failures too). */
export function refreshRouteHealth(place: HealthPlace, providers: Iterable<ProviderId>, waitUntil: WaitUntil): void {
  const config = breakerConfig(place.env);
  if (config) refresh(place, config, providers, waitUntil);
}

/** The session for one request; undefined when the breaker is off (`ROUTE_BREAKER_FAILURES=0`). */
export function routeHealth(place: HealthPlace, waitUntil: WaitUntil): RouteHealthSession | undefined {
  const config = breakerConfig(place.env);
  if (!config) return undefined;
  const report = (route: ChatRoute, event: Omit<HealthEvent, 'upstreamId'>) =>
    sync(route.provider, () => stubOf(place, route.provider).report([{ upstreamId: route.upstreamId, ...event }], config), waitUntil);
  // The probe slots this request holds, until its call gives a verdict.
  const probing = new Set<ChatRoute>();
  return {
    async order<T extends { route: ChatRoute }>(attempts: T[], leaseMs: number): Promise<T[]> {
      const now = Date.now();
      refresh(place, config, attempts.map((attempt) => attempt.route.provider), waitUntil);
      const called: T[] = [];
      const moved: T[] = [];
      for (const attempt of attempts) {
        const health = healthOf(attempt.route);
        let seen = health ? verdict(health, now) : 'call';
        if (seen === 'probe' && health) seen = called.length === 0 ? await probe(place, attempt.route, health, leaseMs) : 'skip';
        if (seen === 'probe') probing.add(attempt.route);
        if (seen === 'skip') moved.push(attempt);
        else called.push(attempt);
      }
      return [...called, ...moved];
    },
    failed(route, retryAfterMs) {
      probing.delete(route);
      setHealth(route, afterFailure(healthOf(route) ?? CLOSED, config, Date.now(), retryAfterMs));
      report(route, { outcome: 'failure', ...(retryAfterMs !== undefined && { retryAfterMs }) });
    },
    served(route) {
      probing.delete(route);
      // A clean route's success changes nothing: no report, so a healthy request makes no call.
      if (!successMatters(healthOf(route))) return;
      setHealth(route, afterSuccess());
      report(route, { outcome: 'success' });
    },
    release() {
      for (const route of probing) {
        setHealth(route, withoutProbe(healthOf(route) ?? CLOSED));
        report(route, { outcome: 'release' });
      }
      probing.clear();
    },
  };
}

/**
 * The probe slot of a half-open route, from the provider's object: `probe` when granted, `call`
 * when the object's state shows the route closed after all (another isolate's probe closed it),
 * else `skip`; this isolate's copy decides when the object cannot be reached.
 */
async function probe(place: HealthPlace, route: ChatRoute, health: RouteHealth, leaseMs: number): Promise<'probe' | 'call' | 'skip'> {
  const askedAt = Date.now();
  try {
    const { granted, view } = await stubOf(place, route.provider).claimProbe(route.upstreamId, leaseMs);
    merge(route.provider, view, askedAt);
    if (granted) return 'probe';
    return verdict(healthOf(route) ?? CLOSED, Date.now()) === 'call' ? 'call' : 'skip';
  } catch {
    setHealth(route, withProbe(health, Date.now(), leaseMs));
    return 'probe';
  }
}

/** A route's status for `/v1/models`, from this isolate's copy (up to `REFRESH_MS` behind other isolates'). */
export function routeStatus(route: ChatRoute, env: Env): RouteStatus {
  const config: BreakerConfig | null = breakerConfig(env);
  return config ? statusOf(healthOf(route), config, Date.now()) : 'ok';
}
