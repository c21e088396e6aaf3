import type { ActivityTotals } from '../../../durable-objects/account/activity-totals';
import { displayUsd } from '../shell';
import type { FundingRow } from './funding';
import { DashboardLayout, utcTime } from './layout';
import { TotalsTable, UseYourKey } from './overview-totals';
import { UsageChart } from './usage-chart';
import type { UsageSeries } from './usage';

export interface OverviewProps {
  shortId: string;
  csrf: string;
  createdAt: string;
  balanceMicros: number;
  heldMicros: number;
  /** The account's fund page (`/fund/<token>`), when it has one. */
  fundPath: string | null;
  usage: UsageSeries;
  totals: ActivityTotals;
  /** This deployment's base URL, for the "use your key" panel. */
  base: string;
  funding: FundingRow[];
  /** D28: shown above the page while the account's keys are refused. */
  suspended: { reason: string } | null;
}

/** `/dashboard`: the balance, totals per period, how to use a key, spend per day by model, and the funding history. */
export function DashboardPage(props: OverviewProps) {
  return (
    <DashboardLayout title="Overview" shortId={props.shortId} csrf={props.csrf} tab="overview" suspended={props.suspended}>
      <section aria-labelledby="balance-title">
        <h2 id="balance-title">
          Money <span class="muted">account created {props.createdAt}</span>
        </h2>
        <dl class="figures">
          <div>
            <dt>Balance</dt>
            <dd id="balance">{displayUsd(props.balanceMicros)}</dd>
          </div>
          <div>
            <dt>Held by requests in flight</dt>
            <dd id="held">{displayUsd(props.heldMicros)}</dd>
          </div>
        </dl>
        {props.fundPath ? (
          <p>
            <a href={props.fundPath}>Add funds by card or USDC</a>
          </p>
        ) : null}
      </section>
      <section aria-labelledby="totals-title">
        <h2 id="totals-title">Totals</h2>
        <TotalsTable totals={props.totals} />
        <p>
          <a href="/dashboard/activity">Every request, failed ones included</a>
        </p>
      </section>
      <UseYourKey base={props.base} />
      <section aria-labelledby="usage-title">
        <h2 id="usage-title">Usage</h2>
        <UsageChart usage={props.usage} />
      </section>
      <section aria-labelledby="funding-title">
        <h2 id="funding-title">Funding history</h2>
        <FundingTable rows={props.funding} />
      </section>
    </DashboardLayout>
  );
}

function FundingTable(props: { rows: FundingRow[] }) {
  if (props.rows.length === 0) return <p class="empty">No payments yet.</p>;
  return (
    <table class="rows" id="funding">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Method</th>
          <th scope="col" class="num">
            Amount
          </th>
          <th scope="col">Status</th>
          <th scope="col">Reference</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr>
            <td data-label="Time">{utcTime(row.at)}</td>
            <td data-label="Method">{row.method}</td>
            <td data-label="Amount" class="num">
              {displayUsd(row.amountMicros)}
            </td>
            <td data-label="Status">{row.status}</td>
            <td data-label="Reference">{row.reference ? <code>{row.reference}</code> : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
