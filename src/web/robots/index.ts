/**
 * robots.txt for the web features (RFC 9309, with Google's documented handling of errors).
 * One checker serves a whole crawl and caches each origin's rules in memory.
 */
import robotsParser from 'robots-parser';
import { guardedFetch, type GuardOptions } from '../guard';

/** The product token matched against robots.txt `User-agent` groups. */
export const ROBOTS_USER_AGENT = 'AIGatewayBot';

export interface RobotsChecker {
  allowed(url: string): Promise<boolean>;
}

export interface RobotsCheckerOptions {
  /**
   * The User-Agent header sent for robots.txt; its first product token (`AIGatewayBot` in
   * `AIGatewayBot/1.0 (+https://…)`) is the name matched against `User-agent` groups.
   */
  userAgent: string;
  guard: GuardOptions & { fetcher?: typeof fetch };
  /** Bound on fetching one robots.txt (default 5 s). */
  timeoutMs?: number;
  /** The clock, for tests of the cache. */
  now?: () => number;
}

export const ROBOTS_CACHE_TTL_MS = 10 * 60_000;
/** A 5xx or unreachable robots.txt is retried after this long rather than trusted for 10 minutes. */
export const ROBOTS_FAILURE_TTL_MS = 60_000;
/** Google reads the first 500 KiB and ignores the rest. */
export const MAX_ROBOTS_BYTES = 500 * 1024;
const DEFAULT_TIMEOUT_MS = 5_000;
const MAX_CACHED_ORIGINS = 1_000;
/** How much longer than the fetch timeout a check waits for rules another check is loading. */
const WAIT_GRACE_MS = 250;

type Decide = (href: string) => boolean;
interface Rules {
  decide: Decide;
  ttlMs: number;
}

const allowAll: Rules = { decide: () => true, ttlMs: ROBOTS_CACHE_TTL_MS };
const disallowAllForNow: Rules = { decide: () => false, ttlMs: ROBOTS_FAILURE_TTL_MS };

/**
 * Fetches {origin}/robots.txt through guardedFetch and answers whether our agent may fetch a URL.
 *
 * What a robots.txt answer means, as Google documents it:
 * - 2xx: the file's rules, for our product token's group, else the `*` group (robots-parser:
 *   longest matching rule wins, Allow wins a tie, `*` and `$` in paths);
 * - 4xx other than 429, and redirect loops (more than 10 hops): no rules, everything allowed;
 * - 429, 5xx, a timeout, a network error, or a robots.txt URL the guard refuses: everything
 *   disallowed, and remembered for one minute only so a later request tries again.
 * Rules are cached per origin for 10 minutes; concurrent checks share one fetch, and no check
 * waits longer than `timeoutMs` plus a quarter second (after that: disallowed, as unreachable).
 */
export function createRobotsChecker(options: RobotsCheckerOptions): RobotsChecker {
  const { userAgent, guard } = options;
  const token = userAgent.trim().split(/[/\s;]/)[0] || ROBOTS_USER_AGENT;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { expires: number; decide: Promise<Decide> }>();

  async function load(origin: string): Promise<Rules> {
    const robotsUrl = `${origin}/robots.txt`;
    const headers = { 'user-agent': userAgent, accept: 'text/plain, */*;q=0.5' };
    const outcome = await guardedFetch(robotsUrl, { method: 'GET', headers, timeoutMs }, guard);
    // The gateway itself has no rules to read: the page fetch is refused with that reason instead.
    if (!outcome.ok) return outcome.kind === 'too_many_redirects' || outcome.self ? allowAll : disallowAllForNow;

    const { response } = outcome.result;
    const { status } = response;
    if (status >= 200 && status < 300) {
      const robot = robotsParser(robotsUrl, await readCapped(response, MAX_ROBOTS_BYTES));
      // undefined means "another origin's file"; cannot happen as the cache is keyed by origin.
      return { decide: (href) => robot.isAllowed(href, token) !== false, ttlMs: ROBOTS_CACHE_TTL_MS };
    }
    await response.body?.cancel().catch(() => undefined);
    return status === 429 || status >= 500 ? disallowAllForNow : allowAll;
  }

  function rulesFor(origin: string): Promise<Decide> {
    const start = now();
    const cached = cache.get(origin);
    if (cached && cached.expires > start) return cached.decide;

    cache.delete(origin);
    const decide: Promise<Decide> = load(origin)
      .catch(() => disallowAllForNow) // e.g. the body timed out mid-read
      .then((rules) => {
        const entry = cache.get(origin);
        if (entry?.decide === decide) entry.expires = start + rules.ttlMs;
        return rules.decide;
      });
    cache.set(origin, { expires: start + ROBOTS_CACHE_TTL_MS, decide });
    // Maps iterate in insertion order: drop the oldest origin once the cache is full.
    if (cache.size > MAX_CACHED_ORIGINS) cache.delete(cache.keys().next().value ?? origin);
    return decide;
  }

  return {
    async allowed(raw) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return false;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
      const pending = rulesFor(url.origin);
      // A load started by another request can hang once that request ends (Workers cancel its
      // I/O): wait a bounded time, then count robots.txt as unreachable and let the next call retry.
      const decide = await withDeadline(pending, timeoutMs + WAIT_GRACE_MS);
      if (decide) return decide(url.href);
      if (cache.get(url.origin)?.decide === pending) cache.delete(url.origin);
      return false;
    },
  };
}

/** The promise's value, or null if it has not settled within `ms`. */
async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** The body as text, reading at most `limit` bytes (the rest is ignored, as Google does). */
async function readCapped(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value.subarray(0, limit - size));
    size += value.byteLength;
  }
  if (size >= limit) await reader.cancel().catch(() => undefined);
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes); // drops a leading BOM
}
