/**
 * What the Stripe simulator's resources share: Stripe's error shape
 * (https://docs.stripe.com/api/errors), ids, times and the checks Stripe applies to common
 * parameters (integers, strings, metadata).
 */
import { randomBytes } from 'node:crypto';
import { isJson, type Json } from './server';

export interface ApiError {
  status: number;
  type: 'invalid_request_error' | 'idempotency_error' | 'card_error';
  message: string;
  param?: string;
  code?: string;
  /** Card errors: the issuer's reason, the failed charge, and the PaymentIntent and PaymentMethod involved. */
  decline_code?: string;
  charge?: string;
  payment_intent?: object;
  payment_method?: object;
}

export class StripeApiFailure extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

export const fail = (message: string, param?: string, code?: string, status = 400): never => {
  throw new StripeApiFailure({ status, type: 'invalid_request_error', message, ...(param ? { param } : {}), ...(code ? { code } : {}) });
};
export const missing = (param: string): never => fail(`Missing required param: ${param}.`, param, 'parameter_missing');
export const noSuch = (kind: string, id: string, param: string): never => fail(`No such ${kind}: '${id}'`, param, 'resource_missing', 404);

/** Refuses top-level parameters outside `known`, as Stripe does. */
export function onlyKnown(params: Json, known: Set<string>, prefix = ''): void {
  for (const name of Object.keys(params)) {
    const param = prefix ? `${prefix}[${name}]` : name;
    if (!known.has(name)) fail(`Received unknown parameter: ${param}`, param, 'parameter_unknown');
  }
}

export const now = () => Math.floor(Date.now() / 1000);
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const randomId = (prefix: string, length: number) => prefix + Array.from(randomBytes(length), (byte) => BASE62[byte % 62]).join('');

export function integer(value: unknown, param: string, min: number): number {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) return fail(`Invalid integer: ${String(value)}`, param, 'parameter_invalid_integer');
  const number = Number(value);
  if (number < min) fail(`This value must be greater than or equal to ${min}.`, param, 'parameter_invalid_integer');
  return number;
}

export function optionalString(params: Json, name: string, max = 5000, param = name): string | null {
  const value = params[name];
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') return fail(`Invalid string: ${JSON.stringify(value)}`, param);
  if (value.length > max) fail(`Invalid string: ${value.slice(0, 20)}...; must be at most ${max} characters`, param, 'string_length');
  return value;
}

/** One of `allowed`, or null when absent. */
export function optionalEnum<T extends string>(params: Json, name: string, allowed: readonly T[], param = name): T | null {
  const value = optionalString(params, name, 100, param);
  if (value === null) return null;
  if (!(allowed as readonly string[]).includes(value)) fail(`Invalid ${param}: must be one of ${allowed.join(', ')}`, param);
  return value as T;
}

/** `metadata[...]` as Stripe checks it: at most 50 keys of 40 characters, values of 500; empty values dropped. */
export function metadataOf(value: unknown, param = 'metadata'): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (value === undefined || value === '') return metadata;
  if (!isJson(value)) return fail('Invalid object', param);
  for (const [key, entry] of Object.entries(value)) {
    if (key.length > 40) fail(`Metadata keys can have up to 40 characters; \`${key}\` has ${key.length}.`, `${param}[${key}]`);
    if (typeof entry !== 'string') return fail('Invalid string', `${param}[${key}]`);
    if (entry.length > 500) fail(`Metadata values can have up to 500 characters, but you passed in a value that is ${entry.length} characters.`, `${param}[${key}]`);
    if (entry !== '') metadata[key] = entry;
  }
  if (Object.keys(metadata).length > 50) fail('You can have up to 50 metadata keys.', param);
  return metadata;
}

/** `true`/`false` as the form encoding sends booleans; null when absent. */
export function optionalBoolean(params: Json, name: string): boolean | null {
  const value = params[name];
  if (value === undefined || value === '') return null;
  if (value !== 'true' && value !== 'false') return fail(`Invalid boolean: ${String(value)}`, name);
  return value === 'true';
}
