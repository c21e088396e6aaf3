import type { ChargeEntry } from '../../../durable-objects/account/usage';
import type { KeyRecord } from '../../../durable-objects/account/types';
import { displayUsd } from '../shell';
import { DashboardLayout, requestHref, utcTime } from './layout';
import { modelOfPurpose } from './usage';

export interface LedgerFilter {
  keyId?: string;
  model?: string;
}

/** The query string of a filter (and a page), for links: `?key=...&model=...`. */
export function filterQuery(filter: LedgerFilter, before?: number): string {
  const params = new URLSearchParams();
  if (filter.keyId) params.set('key', filter.keyId);
  if (filter.model) params.set('model', filter.model);
  if (before !== undefined) params.set('before', String(before));
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** A key as a table shows it: its name and hint, or what is left of it. */
export function keyLabel(keyId: string | null, keys: Map<string, KeyRecord>): string {
  if (keyId === null) return '—';
  const key = keys.get(keyId);
  return key ? `${key.name} (${key.hint})` : keyId;
}

export interface LedgerProps {
  shortId: string;
  csrf: string;
  keys: KeyRecord[];
  models: string[];
  filter: LedgerFilter;
  entries: ChargeEntry[];
  /** The next (older) page's cursor; null on the last page. */
  nextBefore: number | null;
  /** Whether this is a later page (a link back to the newest is shown). */
  paged: boolean;
}

/** `/dashboard/ledger`: each request's cost, newest first, filtered by key and model, with CSV export. */
export function LedgerPage(props: LedgerProps) {
  const keys = new Map(props.keys.map((key) => [key.id, key]));
  return (
    <DashboardLayout title="Ledger" shortId={props.shortId} csrf={props.csrf} tab="ledger">
      <section aria-labelledby="ledger-title">
        <h2 id="ledger-title">Requests and their cost</h2>
        <form method="get" action="/dashboard/ledger" class="filters">
          <div>
            <label for="filter-key">Key</label>
            <select id="filter-key" name="key">
              <option value="">All keys</option>
              {props.keys.map((key) => (
                <option value={key.id} selected={key.id === props.filter.keyId}>
                  {keyLabel(key.id, keys)}
                  {key.revokedAt !== null ? ' · revoked' : ''}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label for="filter-model">Model</label>
            <select id="filter-model" name="model">
              <option value="">All models</option>
              {props.models.map((model) => (
                <option value={model} selected={model === props.filter.model}>
                  {model}
                </option>
              ))}
            </select>
          </div>
          <button type="submit">Filter</button>
          <a id="csv-link" href={`/dashboard/ledger.csv${filterQuery(props.filter)}`} download>
            Download CSV
          </a>
        </form>
        <LedgerTable entries={props.entries} keys={keys} />
        <p class="pager">
          {props.paged ? <a href={`/dashboard/ledger${filterQuery(props.filter)}`}>Newest</a> : null}
          {props.nextBefore !== null ? (
            <a href={`/dashboard/ledger${filterQuery(props.filter, props.nextBefore)}`} rel="next">
              Older
            </a>
          ) : null}
        </p>
      </section>
    </DashboardLayout>
  );
}

function LedgerTable(props: { entries: ChargeEntry[]; keys: Map<string, KeyRecord> }) {
  if (props.entries.length === 0) return <p class="empty">No charges match.</p>;
  return (
    <table class="rows" id="ledger">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Key</th>
          <th scope="col">Model</th>
          <th scope="col">Request id</th>
          <th scope="col" class="num">
            Cost
          </th>
        </tr>
      </thead>
      <tbody>
        {props.entries.map((entry) => (
          <tr>
            <td data-label="Time" class="time">
              {utcTime(entry.createdAt)}
            </td>
            <td data-label="Key">{keyLabel(entry.keyId, props.keys)}</td>
            <td data-label="Model">{modelOfPurpose(entry.purpose)}</td>
            <td data-label="Request id">
              {entry.requestId ? (
                <a href={requestHref(entry.requestId)}>
                  <code>{entry.requestId}</code>
                </a>
              ) : (
                '—'
              )}
            </td>
            <td data-label="Cost" class="num">
              {displayUsd(entry.amountMicros)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
