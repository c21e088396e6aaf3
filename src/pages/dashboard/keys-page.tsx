import type { KeyUsage } from '../../../durable-objects/account/activity-totals';
import type { KeyRecord } from '../../../durable-objects/account/types';
import { displayUsd, isoDay } from '../shell';
import { GuardrailFields, guardrailSummary, keyState, NameField, type ModelChoice } from './key-fields';
import type { FieldErrors, KeyFields } from './key-form';
import { Csrf, DashboardLayout, FormMessages, utcTime } from './layout';

interface Frame {
  shortId: string;
  csrf: string;
}

export const EMPTY_FIELDS: KeyFields = { name: '', daily_limit_usd: '', monthly_limit_usd: '', total_limit_usd: '', allowed_models: [], expires_on: '' };

function StateBadge(props: { key_: KeyRecord; now: number }) {
  const state = keyState(props.key_, props.now);
  return <span class={`badge ${state}`}>{state}</span>;
}

const NEVER_USED: Omit<KeyUsage, 'keyId'> = { spent30DaysMicros: 0, spentTotalMicros: 0, lastUsedAt: null };

/** `/dashboard/keys`: the account's keys with their spend and last use, and the form that creates one. */
export function KeysPage(props: Frame & { keys: KeyRecord[]; usage: KeyUsage[]; models: ModelChoice[]; now: number; fields?: KeyFields; errors?: FieldErrors }) {
  const errors = props.errors ?? {};
  const usage = new Map(props.usage.map((row) => [row.keyId, row]));
  return (
    <DashboardLayout title="API keys" shortId={props.shortId} csrf={props.csrf} tab="keys">
      <section aria-labelledby="keys-title">
        <h2 id="keys-title">API keys</h2>
        <p class="muted">Every key draws on the account’s one balance. A key is shown in full once, when it is made.</p>
        <table class="rows" id="keys">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">State</th>
              <th scope="col" class="num">
                Spend, 30 days
              </th>
              <th scope="col" class="num">
                Spend, total
              </th>
              <th scope="col">Last used</th>
              <th scope="col">Guardrails</th>
            </tr>
          </thead>
          <tbody>
            {props.keys.map((key) => {
              const used = usage.get(key.id) ?? NEVER_USED;
              return (
                <tr data-key-id={key.id}>
                  <td data-label="Name">
                    <a href={`/dashboard/keys/${key.id}`}>{key.name}</a>
                  </td>
                  <td data-label="Key">
                    <code>{key.hint}</code>
                  </td>
                  <td data-label="Created">{isoDay(key.createdAt)}</td>
                  <td data-label="State">
                    <StateBadge key_={key} now={props.now} />
                  </td>
                  <td data-label="Spend, 30 days" class="num">
                    {displayUsd(used.spent30DaysMicros)}
                  </td>
                  <td data-label="Spend, total" class="num">
                    {displayUsd(used.spentTotalMicros)}
                  </td>
                  <td data-label="Last used" class="time">
                    {used.lastUsedAt === null ? 'never' : utcTime(used.lastUsedAt)}
                  </td>
                  <td data-label="Guardrails">{guardrailSummary(key)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="create-title">
        <h2 id="create-title">Create a key</h2>
        <form method="post" action="/dashboard/keys" novalidate>
          <Csrf token={props.csrf} />
          <NameField id="create-name" fields={props.fields ?? EMPTY_FIELDS} errors={errors} />
          <GuardrailFields prefix="create" fields={props.fields ?? EMPTY_FIELDS} errors={errors} models={props.models} />
          <button type="submit">Create key</button>
        </form>
      </section>
    </DashboardLayout>
  );
}

/** `/dashboard/keys/<id>`: one key: rename, guardrails, rotate, revoke. */
export function KeyPage(props: Frame & { key_: KeyRecord; models: ModelChoice[]; now: number; fields: KeyFields; errors?: FieldErrors; notice?: string; problem?: string }) {
  const key = props.key_;
  const errors = props.errors ?? {};
  const live = key.revokedAt === null;
  const base = `/dashboard/keys/${key.id}`;
  return (
    <DashboardLayout title={`Key ${key.name}`} shortId={props.shortId} csrf={props.csrf} tab="keys">
      <p>
        <a href="/dashboard/keys">All keys</a>
      </p>
      <FormMessages notice={props.notice} problem={props.problem} />
      <section aria-labelledby="key-title">
        <h2 id="key-title">
          {key.name} <StateBadge key_={key} now={props.now} />
        </h2>
        <dl>
          <dt>Key</dt>
          <dd>
            <code>{key.hint}</code>
          </dd>
          <dt>Created</dt>
          <dd>{utcTime(key.createdAt)}</dd>
          {key.revokedAt !== null ? (
            <>
              <dt>Revoked</dt>
              <dd>{utcTime(key.revokedAt)}</dd>
            </>
          ) : null}
          <dt>Guardrails</dt>
          <dd id="guardrails">{guardrailSummary(key)}</dd>
        </dl>
        <p>
          <a href={`/dashboard/ledger?key=${encodeURIComponent(key.id)}`}>This key’s requests</a>
        </p>
      </section>
      <section aria-labelledby="rename-title">
        <h2 id="rename-title">Rename</h2>
        <form method="post" action={`${base}/name`} novalidate>
          <Csrf token={props.csrf} />
          <NameField id="rename-name" fields={props.fields} errors={errors} />
          <button type="submit">Rename</button>
        </form>
      </section>
      {live ? (
        <>
          <section aria-labelledby="guardrails-title">
            <h2 id="guardrails-title">Guardrails</h2>
            <form method="post" action={`${base}/guardrails`} novalidate>
              <Csrf token={props.csrf} />
              <GuardrailFields prefix="edit" fields={props.fields} errors={errors} models={props.models} />
              <button type="submit">Save guardrails</button>
            </form>
          </section>
          <section aria-labelledby="lifecycle-title">
            <h2 id="lifecycle-title">Rotate or revoke</h2>
            <p class="muted">
              Rotating makes a new key with this name and these guardrails, shows it once, then revokes this one. Revoking stops this key at once; it cannot be undone.
            </p>
            <div class="actions">
              <form method="post" action={`${base}/rotate`}>
                <Csrf token={props.csrf} />
                <button type="submit" class="secondary">
                  Rotate key
                </button>
              </form>
              <form method="post" action={`${base}/revoke`}>
                <Csrf token={props.csrf} />
                <button type="submit" class="danger">
                  Revoke key
                </button>
              </form>
            </div>
          </section>
        </>
      ) : null}
    </DashboardLayout>
  );
}

/** The one time a key is shown in full: after it was created, or made by a rotation. */
export function KeyCreatedPage(props: Frame & { key_: KeyRecord; apiKey: string; rotatedFrom?: KeyRecord }) {
  return (
    <DashboardLayout title="Key created" shortId={props.shortId} csrf={props.csrf} tab="keys">
      <section aria-labelledby="created-title">
        <h2 id="created-title">{props.rotatedFrom ? `Key ${props.key_.name} rotated` : `Key ${props.key_.name} created`}</h2>
        <p>Copy this key now: it is shown only this once. Keep it out of client-side code.</p>
        <p id="new-key-label">
          <strong>API key</strong>
        </p>
        <code id="new-key" class="secret" tabindex={0} aria-labelledby="new-key-label">
          {props.apiKey}
        </code>
        {props.rotatedFrom ? (
          <p id="notice" class="notice" role="status">
            The old key {props.rotatedFrom.hint} is revoked.
          </p>
        ) : null}
        <p>
          Guardrails: <span id="guardrails">{guardrailSummary(props.key_)}</span>
        </p>
        <p>
          <a href={`/dashboard/keys/${props.key_.id}`}>Manage this key</a> · <a href="/dashboard/keys">All keys</a>
        </p>
      </section>
    </DashboardLayout>
  );
}
