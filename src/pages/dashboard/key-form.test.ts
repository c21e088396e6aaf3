import { describe, expect, it } from 'vitest';
import type { KeyRecord } from '../../../durable-objects/account/types';
import { fieldsOfKey, parseKeyForm, type FormValues } from './key-form';

/** 2026-11-30T15:00:00Z */
const NOW = Date.UTC(2026, 10, 30, 15);
const MODELS = new Set(['openai/gpt-4o', 'openai/gpt-4o-mini']);
const parse = (form: FormValues, withName = true) => parseKeyForm(form, MODELS, NOW, withName);

describe('the key form', () => {
  it('reads a name alone as a key without guardrails', () => {
    expect(parse({ name: '  build bot ', daily_limit_usd: '', monthly_limit_usd: '', total_limit_usd: '', expires_on: '' })).toEqual({
      ok: true,
      fields: { name: 'build bot', daily_limit_usd: '', monthly_limit_usd: '', total_limit_usd: '', allowed_models: [], expires_on: '' },
      name: 'build bot',
      guardrails: { dailyLimitMicros: null, monthlyLimitMicros: null, totalLimitMicros: null, allowedModels: null, expiresAt: null },
    });
  });

  it('reads limits in dollars, ticked models and an expiry date', () => {
    const parsed = parse({
      name: 'ci',
      daily_limit_usd: '0.000010',
      monthly_limit_usd: '$5',
      total_limit_usd: '250.5',
      allowed_models: ['openai/gpt-4o-mini', 'openai/gpt-4o', 'openai/gpt-4o-mini'],
      expires_on: '2027-01-01',
    });
    expect(parsed).toMatchObject({
      ok: true,
      guardrails: {
        dailyLimitMicros: 10,
        monthlyLimitMicros: 5_000_000,
        totalLimitMicros: 250_500_000,
        allowedModels: ['openai/gpt-4o', 'openai/gpt-4o-mini'],
        expiresAt: Date.UTC(2027, 0, 1),
      },
    });
  });

  it('takes one ticked model as a string', () => {
    expect(parse({ name: 'one', allowed_models: 'openai/gpt-4o' })).toMatchObject({ ok: true, guardrails: { allowedModels: ['openai/gpt-4o'] } });
  });

  it.each([
    [{ name: '' }, 'name', /name/],
    [{ name: 'x'.repeat(65) }, 'name', /64/],
    [{ name: 'tab\there' }, 'name', /control/],
    [{ name: 'k', daily_limit_usd: 'ten' }, 'daily_limit_usd', /US dollars/],
    [{ name: 'k', monthly_limit_usd: '0' }, 'monthly_limit_usd', /above zero/],
    [{ name: 'k', total_limit_usd: '-1' }, 'total_limit_usd', /above zero/],
    [{ name: 'k', daily_limit_usd: '0.0000001' }, 'daily_limit_usd', /6 decimals/],
    [{ name: 'k', allowed_models: ['openai/gpt-4o', 'evil/model'] }, 'allowed_models', /evil\/model/],
    [{ name: 'k', expires_on: '2026-02-30' }, 'expires_on', /YYYY-MM-DD/],
    [{ name: 'k', expires_on: 'tomorrow' }, 'expires_on', /YYYY-MM-DD/],
    [{ name: 'k', expires_on: '2026-11-30' }, 'expires_on', /after today/],
    [{ name: 'k', expires_on: '2040-01-01' }, 'expires_on', /ten years/],
  ] as [FormValues, string, RegExp][])('refuses %j, naming %s', (form, field, message) => {
    const parsed = parse(form);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(Object.keys(parsed.errors)).toEqual([field]);
    expect(parsed.errors[field as keyof typeof parsed.errors]).toMatch(message);
  });

  it('needs no name in a key’s guardrails form', () => {
    expect(parse({ daily_limit_usd: '1' }, false)).toMatchObject({ ok: true, guardrails: { dailyLimitMicros: 1_000_000 } });
  });

  it('shows a key’s guardrails as they were typed', () => {
    const key: KeyRecord = {
      id: 'key_1',
      name: 'ci',
      hint: 'ak-…abcd',
      createdAt: NOW,
      revokedAt: null,
      dailyLimitMicros: 10,
      monthlyLimitMicros: 5_000_000,
      totalLimitMicros: null,
      allowedModels: ['openai/gpt-4o'],
      allowedRoutes: null,
      parentKeyId: null,
      expiresAt: Date.UTC(2027, 0, 1),
    };
    const fields = fieldsOfKey(key);
    expect(fields).toEqual({ name: 'ci', daily_limit_usd: '0.00001', monthly_limit_usd: '5', total_limit_usd: '', allowed_models: ['openai/gpt-4o'], expires_on: '2027-01-01' });
    expect(parse({ ...fields }, true)).toMatchObject({ ok: true, guardrails: { dailyLimitMicros: 10, monthlyLimitMicros: 5_000_000, expiresAt: key.expiresAt } });
  });
});
