import type { Child } from 'hono/jsx';
import { Shell } from '../shell';

/**
 * The verification page, one step at a time: the agent's code, then (for an email-bound claim)
 * the mailed code, then a passkey. Every form carries the CSRF token; the passkey step runs in our
 * own scripts (`/assets/webauthn.js`, `/assets/claim.js`).
 */

export interface AccountSummary {
  shortId: string;
  balanceUsd: string;
  createdAt: string;
}

/** A refusal shown inline: `code` is the error code an API would give (D4), for scripts and tests. */
export interface PageError {
  message: string;
  code?: string;
}

function ClaimShell(props: { title?: string; scripts?: string[]; children: Child }) {
  return (
    <Shell title={props.title ?? 'Claim an agent’s account'} scripts={props.scripts}>
      <h1>Claim an agent’s account</h1>
      {props.children}
    </Shell>
  );
}

function Alert(props: { error?: PageError }) {
  if (!props.error) return null;
  return (
    <p id="form-error" class="error" role="alert" data-code={props.error.code}>
      {props.error.message}
    </p>
  );
}

function Csrf(props: { token: string }) {
  return <input type="hidden" name="csrf" value={props.token} />;
}

export function CodeStep(props: { claimId: string; csrf: string; code?: string; error?: PageError }) {
  return (
    <ClaimShell>
      <p class="muted">An AI agent asked you to take over its gateway account. You will see the account before you confirm.</p>
      <section aria-labelledby="code-title">
        <h2 id="code-title">Enter the agent’s code</h2>
        <form method="post" action={`/claim/${props.claimId}`}>
          <Csrf token={props.csrf} />
          <label for="user-code">6-digit code from the agent</label>
          <input
            id="user-code"
            class="code"
            name="code"
            type="text"
            inputmode="numeric"
            autocomplete="one-time-code"
            maxlength={9}
            required
            value={props.code ?? ''}
            aria-describedby="code-help"
            aria-invalid={props.error ? 'true' : undefined}
          />
          <p id="code-help" class="muted">
            The code works for 15 minutes after the agent asked for it.
          </p>
          <Alert error={props.error} />
          <button type="submit">Continue</button>
        </form>
      </section>
    </ClaimShell>
  );
}

export function AccountDetails(props: { account: AccountSummary }) {
  return (
    <section aria-labelledby="account-title">
      <h2 id="account-title">You are claiming</h2>
      <dl>
        <dt>Account</dt>
        <dd>
          <code id="account-id">{props.account.shortId}</code>
        </dd>
        <dt>Balance</dt>
        <dd id="account-balance">{props.account.balanceUsd}</dd>
        <dt>Created</dt>
        <dd>{props.account.createdAt}</dd>
      </dl>
      <p class="muted">The agent keeps its API key. Once claimed, you can sign in to see and manage this account, and it never expires.</p>
    </section>
  );
}

export function EmailStep(props: { claimId: string; csrf: string; account: AccountSummary; maskedEmail: string; notice?: string; error?: PageError }) {
  const base = `/claim/${props.claimId}`;
  return (
    <ClaimShell>
      <AccountDetails account={props.account} />
      <section aria-labelledby="email-title">
        <h2 id="email-title">Confirm your email</h2>
        <p>
          The agent tied this claim to an email address. We sent a 6-digit code to <strong>{props.maskedEmail}</strong>.
        </p>
        <form method="post" action={`${base}/email`}>
          <Csrf token={props.csrf} />
          <label for="email-code">Code from the email</label>
          <input
            id="email-code"
            class="code"
            name="email_code"
            type="text"
            inputmode="numeric"
            autocomplete="one-time-code"
            maxlength={9}
            required
            aria-invalid={props.error ? 'true' : undefined}
          />
          <Alert error={props.error} />
          {props.notice ? (
            <p class="notice" role="status">
              {props.notice}
            </p>
          ) : null}
          <button type="submit">Continue</button>
        </form>
        <form method="post" action={`${base}/email/resend`}>
          <Csrf token={props.csrf} />
          <button type="submit" class="secondary">
            Send a new code
          </button>
        </form>
      </section>
    </ClaimShell>
  );
}

export function PasskeyStep(props: { claimId: string; csrf: string; account: AccountSummary }) {
  const base = `/claim/${props.claimId}/passkey`;
  return (
    <ClaimShell scripts={['/assets/webauthn.js', '/assets/claim.js']}>
      <AccountDetails account={props.account} />
      <section aria-labelledby="passkey-title">
        <h2 id="passkey-title">Confirm with a passkey</h2>
        <p>
          A passkey on this device (fingerprint, face, screen lock or security key) confirms the claim and is how you sign in to this account
          later. There is no password.
        </p>
        <form method="post" data-passkey="register" data-options-url={`${base}/options`} data-verify-url={`${base}/verify`}>
          <Csrf token={props.csrf} />
          <button type="submit">Confirm with a passkey</button>
        </form>
        <p id="passkey-status" class="status" role="status" aria-live="polite"></p>
        <noscript>
          <p class="error">Passkeys need JavaScript: turn it on for this page.</p>
        </noscript>
      </section>
    </ClaimShell>
  );
}

/** A claim that cannot go on (expired, replaced, locked, already claimed, unknown). */
export function EndedPage(props: { title: string; message: string; code?: string; signIn?: boolean }) {
  return (
    <ClaimShell title={props.title}>
      <section>
        <h2>{props.title}</h2>
        <p id="form-error" class="error" role="alert" data-code={props.code}>
          {props.message}
        </p>
        {props.signIn ? (
          <p>
            <a href="/signin">Sign in with your passkey</a>
          </p>
        ) : null}
      </section>
    </ClaimShell>
  );
}
