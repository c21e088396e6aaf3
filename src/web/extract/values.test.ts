import { describe, expect, it } from 'vitest';

import { availability, condition, currencyCode, findPrices, number, parseAmount, parsePrice } from './values.ts';

describe('parsePrice', () => {
  it.each([
    { raw: '£51.77', expected: { amount: 51.77, currency: 'GBP' } },
    { raw: ' £789,950', expected: { amount: 789950, currency: 'GBP' } },
    { raw: 'Guide Price £900,000', expected: { amount: 900000, currency: 'GBP' } },
    { raw: 'From USD $10,745', expected: { amount: 10745, currency: 'USD' } },
    { raw: '$1590 / 1br', expected: { amount: 1590, currency: 'USD' } },
    { raw: 'LBP139999.00', expected: { amount: 139999, currency: 'LBP' } },
    { raw: '1.234,56 €', expected: { amount: 1234.56, currency: 'EUR' } },
    { raw: 'Watch !! - 350$  - $350', expected: { amount: 350, currency: 'USD' } },
    { raw: 'CA$ 12.50', expected: { amount: 12.5, currency: 'CAD' } },
    { raw: '1 299 zł', expected: { amount: 1299, currency: 'PLN' } },
    { raw: '₹ 2,49,999', expected: { amount: 249999, currency: 'INR' } },
  ])('reads $raw', ({ raw, expected }) => {
    expect(parsePrice(raw)).toEqual(expected);
  });

  it.each(['4.4 stars', 'Call 020 8340 2600', '2009-06-16', 'no price here'])('finds no price in %j', (raw) => {
    expect(parsePrice(raw)).toBeUndefined();
  });

  it('finds every price with the text it matched', () => {
    expect(findPrices('Regular price: $179.99 now $119.99').map(({ amount, match }) => [amount, match])).toEqual([
      [179.99, '$179.99'],
      [119.99, '$119.99'],
    ]);
  });
});

describe('parseAmount', () => {
  it.each([
    ['119.99 ', 119.99],
    ['1,590', 1590],
    ['12,5', 12.5],
    ['1.150,00', 1150],
    ['1,234,567.89', 1234567.89],
    ['1.234.567', 1234567],
    ["1'250.50", 1250.5],
    ['89\n      ', 89],
  ])('reads %j as %d', (raw, expected) => {
    expect(parseAmount(raw)).toBe(expected);
  });
});

describe('number', () => {
  it.each([
    ['-122.6432', -122.6432],
    ['4.4', 4.4],
    [3, 3],
    ['1,134', 1134],
    [{ type: ['QuantitativeValue'], properties: { value: '92' } }, 92],
    [['7', '8'], 7],
    ['n/a', undefined],
  ])('reads %j', (raw, expected) => {
    expect(number(raw)).toBe(expected);
  });
});

describe('currencyCode', () => {
  it.each([
    ['usd', 'USD'],
    ['$', 'USD'],
    ['£', 'GBP'],
    ['€', 'EUR'],
    ['R$', 'BRL'],
    ['XYZ', undefined],
  ])('maps %j to %j', (raw, expected) => {
    expect(currencyCode(raw)).toBe(expected);
  });
});

describe('availability', () => {
  it.each([
    ['http://schema.org/InStock', 'in_stock'],
    ['https://schema.org/OutOfStock', 'out_of_stock'],
    ['PreOrder', 'preorder'],
    ['schema:BackOrder', 'backorder'],
    ['in stock', 'in_stock'],
    ['oos', 'out_of_stock'],
    ['https://schema.org/LimitedAvailability', 'limited'],
    ['whenever', undefined],
  ])('normalises %j to %j', (raw, expected) => {
    expect(availability(raw)).toBe(expected);
  });
});

describe('condition', () => {
  it.each([
    ['http://schema.org/UsedCondition', 'used'],
    ['https://schema.org/NewCondition', 'new'],
    ['refurbished', 'refurbished'],
    ['mint', undefined],
  ])('normalises %j to %j', (raw, expected) => {
    expect(condition(raw)).toBe(expected);
  });
});
