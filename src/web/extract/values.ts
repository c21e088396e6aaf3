import { absoluteUrl, collapseWhitespace } from '../structured/dom.ts';
import { isNestedItem } from '../structured/types.ts';
import type { ExtractRecord } from './types.ts';

/** The first value of a repeated property, or the value itself. */
export function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

/** Every value of a property as an array (empty when absent). */
export function list(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** A property read as text: strings and numbers as written, an item by its `name`. */
export function text(value: unknown): string | undefined {
  const single = first(value);
  if (typeof single === 'string') return collapseWhitespace(single) || undefined;
  if (typeof single === 'number' && Number.isFinite(single)) return String(single);
  if (isNestedItem(single)) return text(single.properties.name);
  return undefined;
}

/** A property read as a number; strings go through {@link parseAmount}. */
export function number(value: unknown): number | undefined {
  const single = first(value);
  if (typeof single === 'number') return Number.isFinite(single) ? single : undefined;
  if (typeof single === 'string') {
    const trimmed = single.trim();
    // Plain machine numbers (coordinates may be negative) before price-tag parsing.
    if (/^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(trimmed)) return Number(trimmed);
    return parseAmount(trimmed);
  }
  if (isNestedItem(single)) return number(single.properties.value);
  return undefined;
}

/** A property read as a whole number (`"89 reviews"` → 89). */
export function integer(value: unknown): number | undefined {
  const parsed = number(value);
  return parsed === undefined ? undefined : Math.round(parsed);
}

/** A URL-valued property made absolute; an item (`ImageObject`) gives its `url`/`contentUrl`. */
export function urlOf(value: unknown, base: string): string | undefined {
  const single = first(value);
  if (typeof single === 'string') return absoluteUrl(single, base);
  if (isNestedItem(single)) {
    const { url, contentUrl, '@id': id } = single.properties;
    return urlOf(url, base) ?? urlOf(contentUrl, base) ?? urlOf(id, base);
  }
  return undefined;
}

/** Every URL of a property (all values), absolute and de-duplicated. */
export function urlsOf(value: unknown, base: string): string[] {
  return unique(list(value).map((entry) => urlOf(entry, base)));
}

export function unique<T>(values: readonly (T | undefined)[]): T[] {
  return [...new Set(values.filter((value): value is T => value !== undefined))];
}

/** Drops absent values (undefined, null, empty strings, empty arrays, NaN) so records stay flat and honest. */
export function compact(record: Record<string, unknown>): ExtractRecord {
  const result: ExtractRecord = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (typeof value === 'number' && !Number.isFinite(value)) continue;
    result[key] = value;
  }
  return result;
}

/** Fills the fields `primary` lacks from each fallback in turn. */
export function fillGaps(primary: ExtractRecord, ...fallbacks: ExtractRecord[]): ExtractRecord {
  const merged: ExtractRecord = { ...primary };
  for (const fallback of fallbacks) {
    for (const [key, value] of Object.entries(fallback)) if (!(key in merged)) merged[key] = value;
  }
  return merged;
}

// ——— Money ———

const ISO_CURRENCIES = new Set(
  (
    'USD EUR GBP JPY CNY INR CAD AUD NZD CHF SEK NOK DKK ISK PLN CZK HUF RON BGN RSD UAH RUB TRY ILS AED SAR QAR ' +
    'KWD BHD OMR JOD LBP EGP MAD TND ZAR NGN KES GHS BRL MXN ARS CLP COP PEN UYU KRW TWD HKD SGD MYR THB IDR PHP ' +
    'VND PKR BDT LKR NPR'
  ).split(' '),
);

/** Symbols that name one currency; a bare `$` is read as US dollars. */
const SYMBOLS: Readonly<Record<string, string>> = {
  US$: 'USD',
  CA$: 'CAD',
  C$: 'CAD',
  AU$: 'AUD',
  A$: 'AUD',
  NZ$: 'NZD',
  HK$: 'HKD',
  S$: 'SGD',
  R$: 'BRL',
  $: 'USD',
  '£': 'GBP',
  '€': 'EUR',
  '¥': 'JPY',
  '₹': 'INR',
  '₽': 'RUB',
  '₩': 'KRW',
  '₺': 'TRY',
  '₪': 'ILS',
  '₫': 'VND',
  '฿': 'THB',
  '₱': 'PHP',
  'zł': 'PLN',
};

/** ISO 4217 code for a code or symbol (`usd`, `$`, `£`); undefined when unknown. */
export function currencyCode(value: unknown): string | undefined {
  const raw = text(value);
  if (!raw) return undefined;
  const upper = raw.toUpperCase();
  if (ISO_CURRENCIES.has(upper)) return upper;
  return SYMBOLS[raw] ?? SYMBOLS[upper];
}

/**
 * A number written as on price tags: `1,590`, `139999.00`, `1.234,56`, `12,5`. Commas followed by
 * exactly three digits group thousands; otherwise the last separator is the decimal point.
 */
export function parseAmount(raw: string): number | undefined {
  const match = /\d[\d.,'\u00a0 ]*/.exec(raw.replace(/[\u2009\u202f]/g, ' '));
  if (!match) return undefined;
  let digits = match[0].replace(/[\s'\u00a0]/g, '').replace(/[.,]+$/, '');
  const lastComma = digits.lastIndexOf(',');
  const lastDot = digits.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    const decimal = lastComma > lastDot ? ',' : '.';
    const grouping = decimal === ',' ? '.' : ',';
    digits = digits.split(grouping).join('').replace(decimal, '.');
  } else if (lastComma >= 0) {
    const groups = digits.split(',');
    const thousands = groups.length > 2 || groups[1]?.length === 3;
    digits = thousands ? groups.join('') : digits.replace(',', '.');
  } else if (digits.split('.').length > 2) {
    digits = digits.split('.').join('');
  }
  const value = Number(digits);
  return Number.isFinite(value) ? value : undefined;
}

export interface Price {
  amount: number;
  currency?: string;
}

const SYMBOL_PATTERN = Object.keys(SYMBOLS)
  .sort((a, b) => b.length - a.length)
  .map((symbol) => symbol.replace(/[$]/g, '\\$'))
  .join('|');
const CODE_PATTERN = `(?<![A-Za-z])(?:${[...ISO_CURRENCIES].join('|')})(?![A-Za-z])`;
// Indian lakh grouping (2,49,999), then thousands groups, then plain numbers.
const NUMBER_PATTERN = String.raw`\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d{1,2})?|\d{1,3}(?:[,.'\u00a0 ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`;
const PRICE_PATTERN = new RegExp(
  `(?:(${CODE_PATTERN})\\s*)?(${SYMBOL_PATTERN})\\s?(${NUMBER_PATTERN})` +
    `|(${CODE_PATTERN})\\s?(${NUMBER_PATTERN})` +
    `|(${NUMBER_PATTERN})\\s?(${SYMBOL_PATTERN}|${CODE_PATTERN})`,
  'g',
);

/** Every price written with a currency (`£51.77`, `From USD $10,745`, `LBP139999.00`, `1.234,56 €`). */
export function findPrices(raw: string): (Price & { match: string })[] {
  const found: (Price & { match: string })[] = [];
  for (const match of raw.matchAll(PRICE_PATTERN)) {
    const [whole, codeBefore, symbol, symbolAmount, code, codeAmount, amountBefore, markerAfter] = match;
    const amount = parseAmount(symbolAmount ?? codeAmount ?? amountBefore ?? '');
    if (amount === undefined) continue;
    const currency = currencyCode(codeBefore) ?? currencyCode(symbol) ?? currencyCode(code) ?? currencyCode(markerAfter);
    found.push({ amount, currency, match: whole });
  }
  return found;
}

/** The first price written with a currency in `raw`. */
export function parsePrice(raw: string): Price | undefined {
  const [price] = findPrices(raw);
  return price ? { amount: price.amount, currency: price.currency } : undefined;
}

// ——— Enumerations ———

const AVAILABILITY: Readonly<Record<string, string>> = {
  instock: 'in_stock',
  outofstock: 'out_of_stock',
  soldout: 'sold_out',
  preorder: 'preorder',
  presale: 'presale',
  backorder: 'backorder',
  limitedavailability: 'limited',
  instoreonly: 'in_store_only',
  onlineonly: 'online_only',
  discontinued: 'discontinued',
  reserved: 'reserved',
  availablefororder: 'preorder',
  oos: 'out_of_stock',
  available: 'in_stock',
  unavailable: 'out_of_stock',
  pending: 'preorder',
};

/**
 * schema.org `ItemAvailability` URLs and Open Graph values (`in stock`, `oos`, `preorder`) as
 * `in_stock`, `out_of_stock`, `sold_out`, `preorder`, `presale`, `backorder`, `limited`,
 * `in_store_only`, `online_only`, `discontinued` or `reserved`.
 */
export function availability(value: unknown): string | undefined {
  const raw = text(value);
  if (!raw) return undefined;
  const key = raw.replace(/^.*[/#:]/, '').toLowerCase().replace(/[^a-z]/g, '');
  return AVAILABILITY[key];
}

/** `NewCondition` / `new` → `new`; also `used`, `refurbished`, `damaged`. */
export function condition(value: unknown): string | undefined {
  const raw = text(value);
  if (!raw) return undefined;
  const key = raw.replace(/^.*[/#:]/, '').toLowerCase().replace(/condition$/, '');
  return ['new', 'used', 'refurbished', 'damaged'].includes(key) ? key : undefined;
}
