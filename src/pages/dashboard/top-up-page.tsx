import type { TopUpRecord, TopUpView } from '../../../durable-objects/account/top-up';
import { displayUsd } from '../shell';
import { Csrf, DashboardLayout, utcTime } from './layout';
import type { FieldError } from './top-up-form';

/** What the auto top-up page shows: the saved card, the rule, a failure that stopped it, and the latest top-ups. */
export interface TopUpPageProps {
  shortId: string;
  csrf: string;
  balanceMicros: number;
  view: TopUpView;
  /** False when the gateway has no Stripe key: no card can be saved. */
  cardsEnabled: boolean;
  notice?: string;
  /** What the human typed in the rule's form, shown again with its error. */
  rule?: { threshold: string; amount: string; error?: FieldError | { field?: undefined; message: string } };
  /** The card form's amount and error. */
  card?: { amount: string; error: string };
}

/** `25000000` -> `"25.00"`: a whole-cent amount as a form field shows it. */
const field = (micros: number) => (micros / 1_000_000).toFixed(2);

/** What the human can do about a failed top-up, by Stripe's error code. */
function remedy(code: string | null): string {
  switch (code) {
    case 'stripe_unreachable':
      return 'The card processor did not answer, so the top-up was given up and no charge is known. Turn auto top-up back on to try again.';
    case 'daily_cap_reached':
      return 'This many top-ups in one day looks like a runaway spend, so the card was not charged. Check what is spending (the ledger), then turn auto top-up back on; the ceiling starts again at midnight UTC.';
    case 'card_payments_off':
      return 'Card payments are switched off on this gateway; ask its operator.';
    case 'authentication_required':
      return 'Your bank wants you to confirm this charge yourself. Save the card again below (you confirm it at checkout), or save another card.';
    default:
      return 'Save another card below (it pays the amount you choose now and keeps that card for auto top-up), or, if this card should work now, turn auto top-up back on.';
  }
}

export function TopUpPage(props: TopUpPageProps) {
  const { view } = props;
  return (
    <DashboardLayout title="Auto top-up" shortId={props.shortId} csrf={props.csrf} tab="top-up">
      <p class="balance">
        Balance <strong id="balance">{displayUsd(props.balanceMicros)}</strong>
      </p>
      <p id="notice" class="notice" role="status">
        {props.notice ?? ''}
      </p>
      {view.stoppedBy && <Failure record={view.stoppedBy} />}
      <RuleSection {...props} />
      <CardSection {...props} />
      <History records={view.recent} />
    </DashboardLayout>
  );
}

function Failure(props: { record: TopUpRecord }) {
  const { record } = props;
  return (
    <section id="top-up-failure" role="alert" aria-labelledby="failure-title">
      <h2 id="failure-title" class="error">Auto top-up stopped</h2>
      <p>
        The top-up of {displayUsd(record.amountMicros)} on {utcTime(record.endedAt ?? record.createdAt)} failed: {record.failureMessage ?? 'the card was not charged.'}
        {record.failureCode ? ` (${record.failureCode})` : ''} It is not tried again: auto top-up stays off until you act.
      </p>
      <p>
        <strong>What to do:</strong> {remedy(record.failureCode)}
      </p>
    </section>
  );
}

function RuleSection(props: TopUpPageProps) {
  const { view, rule } = props;
  const error = rule?.error;
  const status = view.enabled
    ? `On: when a charge leaves the balance below ${displayUsd(view.thresholdMicros)}, ${displayUsd(view.amountMicros)} is charged to the saved card.`
    : 'Off.';
  return (
    <section aria-labelledby="rule-title">
      <h2 id="rule-title">Auto top-up</h2>
      <p id="top-up-status">{status}</p>
      {view.pending && <p id="top-up-pending">A top-up of {displayUsd(view.pending.amountMicros)} is being charged now.</p>}
      {!view.card && <p class="muted">Save a card below first; auto top-up charges it.</p>}
      {error && !error.field && <p class="field-error">{error.message}</p>}
      <form method="post" action="/dashboard/top-up">
        <Csrf token={props.csrf} />
        <div class="fields">
          <Money name="threshold_usd" label="When the balance falls below (USD)" hint="$0 to $10,000" value={rule?.threshold ?? field(view.amountMicros > 0 ? view.thresholdMicros : 5_000_000)} min="0" max="10000" error={error?.field === 'threshold_usd' ? error.message : undefined} />
          <Money name="amount_usd" label="Add this amount (USD)" hint="$5 to $1,000" value={rule?.amount ?? field(view.amountMicros > 0 ? view.amountMicros : 20_000_000)} min="5" max="1000" error={error?.field === 'amount_usd' ? error.message : undefined} />
        </div>
        <button type="submit" disabled={!view.card || undefined}>
          {view.enabled ? 'Save changes' : 'Turn on auto top-up'}
        </button>
      </form>
      {view.enabled && (
        <form method="post" action="/dashboard/top-up/disable">
          <Csrf token={props.csrf} />
          <button type="submit" class="secondary">
            Turn off auto top-up
          </button>
        </form>
      )}
    </section>
  );
}

function Money(props: { name: string; label: string; hint: string; value: string; min: string; max: string; error?: string }) {
  const id = props.name.replace('_', '-');
  return (
    <div>
      <label for={id}>
        {props.label} <span class="hint">{props.hint}</span>
      </label>
      <input id={id} name={props.name} type="number" inputmode="decimal" min={props.min} max={props.max} step="0.01" required value={props.value} aria-invalid={props.error ? 'true' : undefined} aria-describedby={props.error ? `${id}-error` : undefined} />
      {props.error && (
        <p id={`${id}-error`} class="field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}

function CardSection(props: TopUpPageProps) {
  const { view } = props;
  const card = view.card;
  const name = card ? `${card.brand ? card.brand[0]!.toUpperCase() + card.brand.slice(1) : 'Card'}${card.last4 ? ` •••• ${card.last4}` : ''}` : null;
  return (
    <section aria-labelledby="card-title">
      <h2 id="card-title">Card</h2>
      <p id="saved-card">{name ? `${name} is saved for auto top-up.` : 'No card is saved yet.'}</p>
      {props.cardsEnabled ? (
        <form method="post" action="/dashboard/top-up/card">
          <Csrf token={props.csrf} />
          <label for="card-amount">
            Pay now to save {card ? 'another' : 'a'} card (USD) <span class="hint">$5 to $1,000, added to the balance; you pay at Stripe's checkout and the card is kept for auto top-up</span>
          </label>
          <input id="card-amount" name="amount_usd" type="number" inputmode="decimal" min="5" max="1000" step="0.01" required value={props.card?.amount ?? '20.00'} aria-invalid={props.card ? 'true' : undefined} />
          {props.card && <p class="field-error">{props.card.error}</p>}
          <button type="submit">{card ? 'Save another card' : 'Save a card'}</button>
        </form>
      ) : (
        <p>Card payments are not available on this gateway.</p>
      )}
    </section>
  );
}

const STATUS: Record<TopUpRecord['status'], string> = { pending: 'being charged', succeeded: 'charged', failed: 'failed' };

function History(props: { records: TopUpRecord[] }) {
  if (props.records.length === 0) return null;
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">Latest top-ups</h2>
      <table class="rows" id="top-ups">
        <thead>
          <tr>
            <th>Started</th>
            <th class="num">Amount</th>
            <th>Status</th>
            <th>Detail</th>
          </tr>
        </thead>
        <tbody>
          {props.records.map((record) => (
            <tr>
              <td data-label="Started">{utcTime(record.createdAt)}</td>
              <td data-label="Amount" class="num">
                {displayUsd(record.amountMicros)}
              </td>
              <td data-label="Status">{STATUS[record.status]}</td>
              <td data-label="Detail">{record.status === 'failed' ? record.failureMessage : <code>{record.paymentIntentId ?? ''}</code>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
