import { describe, expect, it } from 'vitest';
import type { TranscriptionRoute } from '../../catalog/types';
import { billedSeconds, secondsCostMicros } from './plan';

const route = (perHour: number, minimumSeconds?: number): TranscriptionRoute => ({
  provider: 'openai',
  upstreamId: 'x',
  perHour,
  minimumSeconds,
  source: { url: 'https://example.com', readOn: '2026-12-02' },
});

describe('the price of seconds of audio', () => {
  it.each([
    [0.36, undefined, 9, 9, 900],
    [0.36, undefined, 9.0000000001, 9, 900],
    [0.36, undefined, 9.2, 10, 1000],
    [0.18, undefined, 7.5, 8, 400],
    [0.111, 10, 3, 10, 308],
    [0.111, 10, 3600, 3600, 111_000],
    [0.04, 10, 12, 12, 133],
    [0.22, undefined, 1, 1, 61],
  ])('at $%s an hour (minimum %s s), %s s bill as %i s: %i micro-dollars', (perHour, minimum, seconds, billed, micros) => {
    expect(billedSeconds(route(perHour, minimum), seconds)).toBe(billed);
    expect(secondsCostMicros(route(perHour, minimum), seconds)).toBe(micros);
  });
});
