import type { KeyGuardrails, KeyRecord } from '../../../durable-objects/account/types';
import { formatUsd, parseUsd } from '../../money';

/**
 * The key forms (create, and a key's guardrails) as typed, and what they mean for the account's
 * Durable Object: pure, so every refusal is tested without a page. An empty limit means none; no
 * model ticked means every model; an expiry date means the key stops at 00:00 UTC that day.
 */

export type FormValues = Record<string, string | File | (string | File)[]>;

/** The fields as typed, to show again with an error. */
export interface KeyFields {
  name: string;
  daily_limit_usd: string;
  monthly_limit_usd: string;
  total_limit_usd: string;
  allowed_models: string[];
  expires_on: string;
}

export type KeyField = keyof KeyFields;
export type FieldErrors = Partial<Record<KeyField, string>>;

export type ParsedKeyForm =
  | { ok: true; fields: KeyFields; name: string; guardrails: Required<KeyGuardrails> }
  | { ok: false; fields: KeyFields; errors: FieldErrors };

export const NAME_MAX = 64;
const DAY_MS = 86_400_000;
/** A limit above this is surely a typo (and stays far inside a safe integer of micro-dollars). */
const LIMIT_MAX_MICROS = 1_000_000 * 1_000_000;

const text = (value: FormValues[string] | undefined): string => (typeof value === 'string' ? value.trim() : '');
const texts = (value: FormValues[string] | undefined): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((item): item is string => typeof item === 'string');

/** The fields of a posted key form. */
export function keyFields(form: FormValues): KeyFields {
  return {
    name: text(form.name),
    daily_limit_usd: text(form.daily_limit_usd),
    monthly_limit_usd: text(form.monthly_limit_usd),
    total_limit_usd: text(form.total_limit_usd),
    allowed_models: [...new Set(texts(form.allowed_models))],
    expires_on: text(form.expires_on),
  };
}

/** A key's guardrails as the form shows them. */
export function fieldsOfKey(key: KeyRecord): KeyFields {
  const usd = (micros: number | null) => (micros === null ? '' : formatUsd(micros).replace(/\.?0+$/, ''));
  return {
    name: key.name,
    daily_limit_usd: usd(key.dailyLimitMicros),
    monthly_limit_usd: usd(key.monthlyLimitMicros),
    total_limit_usd: usd(key.totalLimitMicros),
    allowed_models: key.allowedModels ?? [],
    expires_on: key.expiresAt === null ? '' : new Date(key.expiresAt).toISOString().slice(0, 10),
  };
}

/** Why a key name is refused, or null for a good one. */
export function nameError(name: string): string | null {
  if (name === '') return 'Give the key a name.';
  if (name.length > NAME_MAX) return `A name has at most ${NAME_MAX} characters.`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'A name cannot contain control characters.';
  return null;
}

/**
 * Reads a key form: the create form (`withName`) or a key's guardrails form. `models` are the ids
 * a key may be limited to (the live catalog, plus those the key already names); `now` decides
 * which expiry dates are in the past.
 */
export function parseKeyForm(form: FormValues, models: ReadonlySet<string>, now: number, withName: boolean): ParsedKeyForm {
  const fields = keyFields(form);
  const errors: FieldErrors = {};

  const badName = withName ? nameError(fields.name) : null;
  if (badName) errors.name = badName;

  const limit = (field: 'daily_limit_usd' | 'monthly_limit_usd' | 'total_limit_usd'): number | null => {
    const typed = fields[field].replace(/^\$/, '');
    if (typed === '') return null;
    const micros = parseUsd(typed);
    if (micros === null || micros <= 0 || micros > LIMIT_MAX_MICROS) {
      errors[field] = 'Enter an amount in US dollars above zero, such as 5 or 0.25 (up to 6 decimals), or leave it empty for no limit.';
      return null;
    }
    return micros;
  };
  const daily = limit('daily_limit_usd');
  const monthly = limit('monthly_limit_usd');
  const total = limit('total_limit_usd');

  const unknown = fields.allowed_models.filter((model) => !models.has(model));
  if (unknown.length > 0) errors.allowed_models = `Not in the catalog: ${unknown.join(', ')}.`;

  let expiresAt: number | null = null;
  if (fields.expires_on !== '') {
    const day = /^\d{4}-\d{2}-\d{2}$/.test(fields.expires_on) ? Date.parse(`${fields.expires_on}T00:00:00Z`) : NaN;
    if (Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== fields.expires_on) errors.expires_on = 'Enter a date as YYYY-MM-DD.';
    else if (day <= now) errors.expires_on = 'Choose a date after today (the key stops at 00:00 UTC that day).';
    else if (day > now + 10 * 366 * DAY_MS) errors.expires_on = 'Choose a date within ten years.';
    else expiresAt = day;
  }

  if (Object.keys(errors).length > 0) return { ok: false, fields, errors };
  return {
    ok: true,
    fields,
    name: fields.name,
    guardrails: {
      dailyLimitMicros: daily,
      monthlyLimitMicros: monthly,
      totalLimitMicros: total,
      allowedModels: fields.allowed_models.length > 0 ? [...fields.allowed_models].sort() : null,
      expiresAt,
    },
  };
}
