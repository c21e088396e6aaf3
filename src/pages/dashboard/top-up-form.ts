import { MICROS_PER_USD } from '../../money';
import { THRESHOLD_MAX_MICROS, TOP_UP_MAX_MICROS, TOP_UP_MIN_MICROS, type TopUpRule } from '../../../durable-objects/account/top-up';
import type { Result } from '../../../durable-objects/account/types';

/** A field of the auto top-up page's forms and what is wrong with it. */
export interface FieldError {
  field: 'threshold_usd' | 'amount_usd';
  message: string;
}

const usd = (micros: number) => `$${(micros / MICROS_PER_USD).toLocaleString('en-US')}`;

/** Dollars as a person types them (`25`, `25.5`, `25.50`, `1,000`) in micro-dollars; null unless whole cents. */
export function dollars(value: unknown): number | null {
  const text = typeof value === 'string' ? value.trim().replace(/^\$/, '').replaceAll(',', '') : '';
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(text)) return null;
  const [whole = '0', cents = ''] = text.split('.');
  return Number(whole) * MICROS_PER_USD + Number(cents.padEnd(2, '0')) * 10_000;
}

/** The amount of one top-up (also the first payment that saves a card): $5 to $1,000. */
export function parseAmount(value: unknown): Result<{ micros: number }, FieldError> {
  const micros = dollars(value);
  if (micros === null || micros < TOP_UP_MIN_MICROS || micros > TOP_UP_MAX_MICROS) {
    return { ok: false, field: 'amount_usd', message: `Enter an amount from ${usd(TOP_UP_MIN_MICROS)} to ${usd(TOP_UP_MAX_MICROS)}, such as 20 or 20.50.` };
  }
  return { ok: true, micros };
}

/** The rule's form: the threshold ($0 to $10,000) and the amount. */
export function parseRule(form: Record<string, unknown>): Result<{ rule: TopUpRule }, FieldError> {
  const threshold = dollars(form.threshold_usd);
  if (threshold === null || threshold > THRESHOLD_MAX_MICROS) {
    return { ok: false, field: 'threshold_usd', message: `Enter a threshold from $0 to ${usd(THRESHOLD_MAX_MICROS)}, such as 5.` };
  }
  const amount = parseAmount(form.amount_usd);
  return amount.ok ? { ok: true, rule: { thresholdMicros: threshold, amountMicros: amount.micros } } : amount;
}
