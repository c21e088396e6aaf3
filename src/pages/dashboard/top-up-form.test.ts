import { describe, expect, it } from 'vitest';
import { dollars, parseAmount, parseRule } from './top-up-form';

describe('the auto top-up form', () => {
  it.each([
    ['25', 25_000_000],
    ['25.5', 25_500_000],
    ['$1,000.00', 1_000_000_000],
    [' 0 ', 0],
    ['0.01', 10_000],
  ])('reads %j as %i micro-dollars', (text, micros) => expect(dollars(text)).toBe(micros));

  it.each(['', 'ten', '-5', '5.001', '1e3', '5.', undefined, 5])('refuses %j as dollars', (value) => expect(dollars(value)).toBeNull());

  it.each([
    ['4.99', false],
    ['5', true],
    ['1000', true],
    ['1000.01', false],
  ])('takes an amount of %s only from $5 to $1,000: %s', (text, ok) => expect(parseAmount(text).ok).toBe(ok));

  it('names the field that is wrong', () => {
    expect(parseRule({ threshold_usd: '-1', amount_usd: '20' })).toMatchObject({ ok: false, field: 'threshold_usd' });
    expect(parseRule({ threshold_usd: '10001', amount_usd: '20' })).toMatchObject({ ok: false, field: 'threshold_usd' });
    expect(parseRule({ threshold_usd: '5', amount_usd: '2' })).toMatchObject({ ok: false, field: 'amount_usd' });
    expect(parseRule({ threshold_usd: '0', amount_usd: '20' })).toEqual({ ok: true, rule: { thresholdMicros: 0, amountMicros: 20_000_000 } });
  });
});
