import type { ActivityRow, StoredRequest } from '../../../durable-objects/account/requests';
import type { KeyRecord } from '../../../durable-objects/account/types';
import { displayUsd } from '../shell';
import { DashboardLayout, requestHref, utcTime } from './layout';
import { keyLabel } from './ledger-page';

/** A record's units as a person reads them: `12 in · 5 out tokens (3 cached)`, `2 images`, `8 seconds`. */
export function unitsOf(usage: Record<string, number>): string {
  const { prompt_tokens: input, completion_tokens: output, cached_tokens: cached, reasoning_tokens: reasoning, ...rest } = usage;
  const parts: string[] = [];
  if (input !== undefined || output !== undefined) {
    const extra = [cached ? `${cached} cached` : '', reasoning ? `${reasoning} reasoning` : ''].filter(Boolean).join(', ');
    parts.push(`${input ?? 0} in · ${output ?? 0} out tokens${extra ? ` (${extra})` : ''}`);
  }
  for (const [name, value] of Object.entries(rest)) if (value) parts.push(`${value} ${name.replaceAll('_', ' ')}`);
  return parts.join(', ') || '—';
}

/** `/dashboard/activity`: the account's requests, newest first, failed ones included. */
export function ActivityPage(props: { shortId: string; csrf: string; rows: ActivityRow[]; keys: Map<string, KeyRecord>; next: string | null; paged: boolean }) {
  return (
    <DashboardLayout title="Activity" shortId={props.shortId} csrf={props.csrf} tab="activity">
      <section aria-labelledby="activity-title">
        <h2 id="activity-title">Requests</h2>
        <p class="muted">Every billed request of the last 30 days: what it used, how long it took and what it cost. A failed request costs nothing.</p>
        {props.rows.length === 0 ? (
          <p class="empty">No requests yet.</p>
        ) : (
          <table class="rows" id="activity">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Request</th>
                <th scope="col">Key</th>
                <th scope="col">Model</th>
                <th scope="col">Status</th>
                <th scope="col">Units</th>
                <th scope="col" class="num">
                  Latency
                </th>
                <th scope="col" class="num">
                  Cost
                </th>
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row) => (
                <tr data-request-id={row.requestId} data-status={row.status}>
                  <td data-label="Time" class="time">
                    {utcTime(row.startedAt)}
                  </td>
                  <td data-label="Request">
                    <a href={requestHref(row.requestId)}>
                      <code>{row.requestId}</code>
                    </a>
                    <br />
                    <span class="muted">{row.path}</span>
                  </td>
                  <td data-label="Key">{keyLabel(row.keyId, props.keys)}</td>
                  <td data-label="Model">
                    {row.model ?? '—'}
                    {row.provider ? <span class="muted"> via {row.provider}</span> : null}
                  </td>
                  <td data-label="Status">
                    <span class={`badge ${row.status === 'succeeded' ? 'active' : 'failed'}`}>{row.status}</span>
                  </td>
                  <td data-label="Units">{unitsOf(row.usage)}</td>
                  <td data-label="Latency" class="num">
                    {row.durationMs.toLocaleString('en-US')} ms
                  </td>
                  <td data-label="Cost" class="num">
                    {displayUsd(row.costMicros)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p class="pager">
          {props.paged ? <a href="/dashboard/activity">Newest</a> : null}
          {props.next !== null ? (
            <a href={`/dashboard/activity?before=${encodeURIComponent(props.next)}`} rel="next">
              Older
            </a>
          ) : null}
        </p>
      </section>
    </DashboardLayout>
  );
}

/** `/dashboard/requests/<id>`: one request as `GET /v1/requests/{id}` tells it. */
export function RequestPage(props: { shortId: string; csrf: string; request: StoredRequest }) {
  const { request } = props;
  return (
    <DashboardLayout title={`Request ${request.requestId}`} shortId={props.shortId} csrf={props.csrf} tab="activity">
      <section aria-labelledby="request-title">
        <h2 id="request-title">
          Request <code>{request.requestId}</code>
        </h2>
        <dl id="request">
          <dt>Route</dt>
          <dd>{request.path}</dd>
          <dt>Status</dt>
          <dd>{request.status}</dd>
          <dt>Model</dt>
          <dd>{request.model ?? '—'}</dd>
          <dt>Provider</dt>
          <dd>{request.provider ?? '—'}</dd>
          <dt>Started</dt>
          <dd>{utcTime(request.startedAt)}</dd>
          <dt>Latency</dt>
          <dd>{request.durationMs.toLocaleString('en-US')} ms</dd>
          <dt>Streamed</dt>
          <dd>{request.streamed ? 'yes' : 'no'}</dd>
          <dt>Units</dt>
          <dd>{unitsOf(request.usage)}</dd>
          <dt>Cost</dt>
          <dd>{displayUsd(request.costMicros)}</dd>
        </dl>
        <p class="muted">
          An API key reads the same with <code>GET /v1/requests/{request.requestId}</code>. <a href="/dashboard/activity">All requests</a>
        </p>
      </section>
    </DashboardLayout>
  );
}
