import type { KeyRecord } from '../../../durable-objects/account/types';
import { displayUsd } from '../shell';
import type { FieldErrors, KeyField, KeyFields } from './key-form';
import { utcTime } from './layout';

/** A model a key may be limited to, as the allowlist offers it. */
export interface ModelChoice {
  id: string;
  type: string;
  name: string;
}

function FieldError(props: { field: KeyField; errors: FieldErrors }) {
  const message = props.errors[props.field];
  return message ? (
    <p id={`${props.field}-error`} class="field-error" role="alert">
      {message}
    </p>
  ) : null;
}

const described = (field: KeyField, errors: FieldErrors, hint?: string) =>
  [hint, errors[field] ? `${field}-error` : undefined].filter(Boolean).join(' ') || undefined;

export function NameField(props: { fields: KeyFields; errors: FieldErrors; id: string }) {
  return (
    <div class="name-field">
      <label for={props.id}>Name</label>
      <input
        id={props.id}
        name="name"
        type="text"
        required
        maxlength={64}
        value={props.fields.name}
        aria-invalid={props.errors.name ? 'true' : undefined}
        aria-describedby={described('name', props.errors)}
      />
      <FieldError field="name" errors={props.errors} />
    </div>
  );
}

const LIMITS = [
  { field: 'daily_limit_usd', label: 'Daily limit (USD)', hint: 'Per UTC day.' },
  { field: 'monthly_limit_usd', label: 'Monthly limit (USD)', hint: 'Per UTC month.' },
  { field: 'total_limit_usd', label: 'Total limit (USD)', hint: 'Over its life.' },
] as const;

/**
 * A key's guardrails: spend limits, expiry date and the model allowlist (ticked models only;
 * none ticked allows every model). `prefix` keeps ids unique when a page has two such forms.
 */
export function GuardrailFields(props: { fields: KeyFields; errors: FieldErrors; models: ModelChoice[]; prefix: string }) {
  const { fields, errors, prefix } = props;
  const chosen = new Set(fields.allowed_models);
  const types = [...new Set(props.models.map((model) => model.type))];
  return (
    <>
      <p class="hint" id={`${prefix}-limits-hint`}>
        Leave a limit empty for none, and the date empty for a key that never expires.
      </p>
      <div class="fields">
        {LIMITS.map(({ field, label, hint }) => (
          <div>
            <label for={`${prefix}-${field}`}>
              {label}
              <span class="hint" id={`${prefix}-${field}-hint`}>
                {hint}
              </span>
            </label>
            <input
              id={`${prefix}-${field}`}
              name={field}
              type="text"
              inputmode="decimal"
              placeholder="none"
              value={fields[field]}
              aria-invalid={errors[field] ? 'true' : undefined}
              aria-describedby={described(field, errors, `${prefix}-${field}-hint ${prefix}-limits-hint`)}
            />
            <FieldError field={field} errors={errors} />
          </div>
        ))}
        <div>
          <label for={`${prefix}-expires_on`}>
            Expires on
            <span class="hint" id={`${prefix}-expires_on-hint`}>
              At 00:00 UTC.
            </span>
          </label>
          <input
            id={`${prefix}-expires_on`}
            name="expires_on"
            type="date"
            value={fields.expires_on}
            aria-invalid={errors.expires_on ? 'true' : undefined}
            aria-describedby={described('expires_on', errors, `${prefix}-expires_on-hint`)}
          />
          <FieldError field="expires_on" errors={errors} />
        </div>
      </div>
      <fieldset aria-describedby={`${prefix}-models-hint`}>
        <legend>Allowed models</legend>
        <p class="hint" id={`${prefix}-models-hint`}>
          Tick the models this key may use. None ticked: every model.
        </p>
        <div class="models">
          {types.map((type) => (
            <div role="group" aria-label={`${type} models`}>
              <h3>{type}</h3>
              {props.models
                .filter((model) => model.type === type)
                .map((model) => (
                  <label>
                    <input type="checkbox" name="allowed_models" value={model.id} checked={chosen.has(model.id)} />
                    <span>
                      {model.id} <span class="muted">{model.name}</span>
                    </span>
                  </label>
                ))}
            </div>
          ))}
        </div>
        <FieldError field="allowed_models" errors={errors} />
      </fieldset>
    </>
  );
}

/** A key's guardrails in one line: `daily $1 · models: openai/gpt-4o · expires 2027-01-01`. */
export function guardrailSummary(key: KeyRecord): string {
  const parts = [
    key.dailyLimitMicros !== null ? `daily ${displayUsd(key.dailyLimitMicros)}` : null,
    key.monthlyLimitMicros !== null ? `monthly ${displayUsd(key.monthlyLimitMicros)}` : null,
    key.totalLimitMicros !== null ? `total ${displayUsd(key.totalLimitMicros)}` : null,
    key.allowedModels ? `models: ${key.allowedModels.join(', ')}` : null,
    key.allowedRoutes ? `routes: ${key.allowedRoutes.join(', ')}` : null,
    key.parentKeyId !== null ? `sub-key of ${key.parentKeyId}` : null,
    key.expiresAt !== null ? `expires ${utcTime(key.expiresAt).slice(0, 10)}` : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(' · ') : 'none';
}

/** A key's state: `active`, `revoked` or `expired` at `now`. */
export function keyState(key: KeyRecord, now: number): 'active' | 'revoked' | 'expired' {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && key.expiresAt <= now) return 'expired';
  return 'active';
}
