import { Shell } from '../shell';

/** Signing in again with the passkey made at the claim (discoverable: no name to type). */
export function SignInPage(props: { csrf: string; notice?: string }) {
  return (
    <Shell title="Sign in" scripts={['/assets/webauthn.js', '/assets/claim.js']}>
      <h1>Sign in</h1>
      <p class="muted">Use the passkey you made when you claimed your account.</p>
      <p id="notice" class="notice" role="status">
        {props.notice ?? ''}
      </p>
      <section aria-labelledby="signin-title">
        <h2 id="signin-title">Passkey</h2>
        <form method="post" data-passkey="signin" data-options-url="/signin/options" data-verify-url="/signin/verify">
          <input type="hidden" name="csrf" value={props.csrf} />
          <button type="submit">Sign in with a passkey</button>
        </form>
        <p id="passkey-status" class="status" role="status" aria-live="polite"></p>
        <noscript>
          <p class="error">Passkeys need JavaScript: turn it on for this page.</p>
        </noscript>
      </section>
    </Shell>
  );
}
