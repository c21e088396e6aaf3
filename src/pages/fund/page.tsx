import { raw } from 'hono/html';
import { Shell } from '../shell';

/** What the fund page shows: the account (short id, balance), the card form and the USDC rail. */
export interface FundPageProps {
  token: string;
  shortId: string;
  createdAt: string;
  /** As a person reads it: `$25.00`. */
  balanceUsd: string;
  /** Exact, for the page's live status (the shown balance is rounded to the cent). */
  balanceMicros: number;
  csrf: string;
  notice?: string;
  /** D28: the account's keys are refused; paying it still works. */
  suspended?: boolean;
  card: CardSection;
  usdc: UsdcSection;
}

export interface CardSection {
  enabled: boolean;
  minUsd: number;
  maxUsd: number;
  /** What is left of the unclaimed total, or null once claimed. */
  remainingUsd: string | null;
  error?: string;
  amount?: string;
}

export interface UsdcSection {
  enabled: boolean;
  error?: string;
  amount?: string;
  intent?: { amountUsdc: string; address: string; tokenContract: string; confirmations: number; expiresAt: string; qrSvg: string };
}

export function FundPage(props: FundPageProps) {
  const base = `/fund/${props.token}`;
  return (
    <Shell title={`Fund account ${props.shortId}`} scripts={['/assets/fund.js']}>
      <h1>
        Fund account <code>{props.shortId}</code>
      </h1>
      <p class="muted">Created {props.createdAt}. Anyone with this link can add money to this account; it grants nothing else.</p>
      <p class="balance">
        Balance <strong id="balance" data-status-url={`${base}/status`} data-micros={String(props.balanceMicros)} aria-live="polite">{props.balanceUsd}</strong>
      </p>
      {props.suspended && (
        <p id="suspended" class="error" role="alert">
          This account is suspended: its API keys are refused until the gateway's operator lifts the suspension. Paying it still works, and the balance is kept.
        </p>
      )}
      <p id="notice" class="notice" role="status">
        {props.notice ?? ''}
      </p>

      {!props.card.enabled && !props.usdc.enabled ? (
        <NoRails />
      ) : (
        <>
          <section aria-labelledby="card-title">
            <h2 id="card-title">Pay by card</h2>
            {props.card.enabled ? <CardForm base={base} csrf={props.csrf} card={props.card} /> : <p>Card payments are not available on this gateway.</p>}
          </section>

          <section aria-labelledby="usdc-title">
            <h2 id="usdc-title">Pay with USDC on Base</h2>
            {props.usdc.enabled ? <UsdcPart base={base} csrf={props.csrf} usdc={props.usdc} /> : <p>USDC payments are not available on this gateway.</p>}
          </section>
        </>
      )}
    </Shell>
  );
}

/** Neither card nor USDC is set up (so no x402 either, which settles in USDC): what the payer and the operator can do instead of a dead end. */
function NoRails() {
  return (
    <section id="no-rails" aria-labelledby="no-rails-title">
      <h2 id="no-rails-title">No payment method is set up here yet</h2>
      <p>This gateway's operator has not turned on card or USDC payments, so this page cannot take money yet. The balance is safe, and this link keeps working.</p>
      <ul>
        <li>
          Ask the operator to top the account up directly, quoting its id above (<code>{'POST /admin/accounts/{id}/credits'}</code>).
        </li>
        <li>
          If you run this gateway: set <code>STRIPE_SECRET_KEY</code> and <code>STRIPE_WEBHOOK_SECRET</code> for cards, or <code>BASE_RPC_URL</code> and{' '}
          <code>USDC_DEPOSIT_ADDRESS</code> for USDC on Base, then reload this page.
        </li>
      </ul>
    </section>
  );
}

function CardForm(props: { base: string; csrf: string; card: CardSection }) {
  const { card } = props;
  return (
    <form method="post" action={`${props.base}/card`}>
      <input type="hidden" name="csrf" value={props.csrf} />
      <label for="card-amount">Amount in US dollars</label>
      <input
        id="card-amount"
        name="amount_usd"
        type="number"
        inputmode="decimal"
        min={String(card.minUsd)}
        max={String(card.maxUsd)}
        step="0.01"
        required
        value={card.amount ?? ''}
        aria-describedby="card-limits"
        aria-invalid={card.error ? 'true' : undefined}
      />
      <p id="card-limits" class="muted">
        ${card.minUsd} minimum, ${card.maxUsd} per payment
        {card.remainingUsd !== null ? `; $${card.remainingUsd} left of the $500 an unclaimed account may receive by card.` : '.'}
      </p>
      {card.error ? (
        <p class="error" role="alert">
          {card.error}
        </p>
      ) : null}
      <button type="submit">Pay with card</button>
    </form>
  );
}

function UsdcPart(props: { base: string; csrf: string; usdc: UsdcSection }) {
  const { usdc } = props;
  return (
    <>
      <form method="post" action={`${props.base}/usdc`}>
        <input type="hidden" name="csrf" value={props.csrf} />
        <label for="usdc-amount">Amount in whole US dollars</label>
        <input id="usdc-amount" name="amount_usd" type="number" inputmode="numeric" min="5" max="10000" step="1" required value={usdc.amount ?? ''} />
        {usdc.error ? (
          <p class="error" role="alert">
            {usdc.error}
          </p>
        ) : null}
        <button type="submit">Show deposit details</button>
      </form>
      {usdc.intent ? (
        <div class="deposit" aria-label="Deposit details">
          <p>
            Send exactly <strong id="amount-usdc">{usdc.intent.amountUsdc} USDC</strong> to:
          </p>
          <p>
            <code id="deposit-address" class="address">
              {usdc.intent.address}
            </code>
          </p>
          <dl>
            <dt>Network</dt>
            <dd>Base (chain id 8453)</dd>
            <dt>Token contract</dt>
            <dd>
              <code class="address">{usdc.intent.tokenContract}</code>
            </dd>
            <dt>Send by</dt>
            <dd>{usdc.intent.expiresAt}</dd>
          </dl>
          <p class="muted">
            The exact amount, to the last digit, identifies this account. The balance rises by what arrives once the transfer has{' '}
            {usdc.intent.confirmations} confirmation(s); this page updates by itself.
          </p>
          <figure class="qr">
            {raw(usdc.intent.qrSvg)}
            <figcaption>Scan with a wallet: the transfer, amount included.</figcaption>
          </figure>
        </div>
      ) : null}
    </>
  );
}

/** A page for a link that leads nowhere (unknown, or its account deleted). */
export function NotFoundPage() {
  return (
    <Shell title="Fund link not found">
      <h1>This fund link does not work</h1>
      <p>The link is mistyped, or its account no longer exists. Ask whoever sent it for a new one.</p>
    </Shell>
  );
}
