import { Shell } from '../shell';

/** The signed-in human's page. Minimal for now: which account, its balance, and signing out. */
export function DashboardPage(props: { shortId: string; balanceUsd: string; createdAt: string; csrf: string }) {
  return (
    <Shell title={`Account ${props.shortId}`}>
      <header class="bar">
        <h1>
          Account <code id="account-id">{props.shortId}</code>
        </h1>
        <form method="post" action="/dashboard/signout">
          <input type="hidden" name="csrf" value={props.csrf} />
          <button type="submit" class="secondary">
            Sign out
          </button>
        </form>
      </header>
      <p class="muted">Created {props.createdAt}.</p>
      <p class="balance">
        Balance <strong id="balance">{props.balanceUsd}</strong>
      </p>
    </Shell>
  );
}
