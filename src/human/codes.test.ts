import { describe, expect, it } from 'vitest';
import { codeHash, codeMatches, newClaimId, newSixDigitCode, normalizeCode, CLAIM_ID_PATTERN } from './codes';

describe('claim codes', () => {
  it('makes six-digit codes that cover the whole range', () => {
    const codes = Array.from({ length: 2000 }, newSixDigitCode);
    expect(codes.every((code) => /^\d{6}$/.test(code))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1990);
    expect(codes.some((code) => code.startsWith('0'))).toBe(true);
  });

  it('makes claim ids of clm_ and 20 base62 characters', () => {
    expect(newClaimId()).toMatch(CLAIM_ID_PATTERN);
  });

  it.each([
    ['123456', '123456'],
    [' 123 456 ', '123456'],
    ['123-456', '123456'],
    ['12345', null],
    ['1234567', null],
    ['12a456', null],
    [123456, null],
  ])('reads %j as %j', (typed, expected) => {
    expect(normalizeCode(typed)).toBe(expected);
  });

  it('matches a code only for its claim and purpose', async () => {
    const stored = await codeHash('clm_a', 'user', '123456');
    expect(await codeMatches('clm_a', 'user', '123456', stored)).toBe(true);
    expect(await codeMatches('clm_a', 'user', '123457', stored)).toBe(false);
    expect(await codeMatches('clm_b', 'user', '123456', stored)).toBe(false);
    expect(await codeMatches('clm_a', 'email', '123456', stored)).toBe(false);
    expect(await codeMatches('clm_a', 'user', '123456', null)).toBe(false);
  });
});
