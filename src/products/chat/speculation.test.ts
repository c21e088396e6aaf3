import { describe, expect, it } from 'vitest';
import type { ChatRoute } from '../../catalog/types';
import { COVER, FRESH_MS, MAX_IN_FLIGHT, maySpeculate } from './speculation';

const route = { provider: 'openai', upstreamId: 'gpt-4o-mini', price: { inputPerMTok: 0.15, outputPerMTok: 0.6 }, source: { url: 'x', readOn: '2026-01-01' } } as ChatRoute;
const now = 1_000_000;
const base = { enabled: true, evidence: { at: now - 1_000, availableMicros: 1_000_000 }, worstCaseMicros: 1_000, route, inFlight: 0, now };

describe('when a chat request may go upstream before its hold is confirmed (D21)', () => {
  it('speculates on fresh evidence that covers the worst case several times over', () => {
    expect(maySpeculate(base)).toBe(true);
    expect(maySpeculate({ ...base, evidence: { at: now - FRESH_MS, availableMicros: COVER * 1_000 } })).toBe(true);
  });

  it.each([
    ['turned off', { enabled: false }],
    ['a cold isolate or a key not seen lately', { evidence: undefined }],
    ['stale evidence', { evidence: { at: now - FRESH_MS - 1, availableMicros: 1_000_000 } }],
    ['a balance that covers the worst case fewer than COVER times', { evidence: { at: now, availableMicros: COVER * 1_000 - 1 } }],
    ['an empty balance', { evidence: { at: now, availableMicros: 0 } }],
    ['a provider that bills aborted requests', { route: { ...route, billsAbortedRequests: true as const } }],
    ['too many early requests already in flight', { inFlight: MAX_IN_FLIGHT }],
  ])('keeps the strict order for %s', (_, change) => {
    expect(maySpeculate({ ...base, ...change })).toBe(false);
  });
});
