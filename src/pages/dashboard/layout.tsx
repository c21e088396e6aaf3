import type { Child } from 'hono/jsx';
import { Shell } from '../shell';

/** The dashboard's sections, in the order of its navigation. */
export const DASHBOARD_TABS = [
  { id: 'overview', href: '/dashboard', label: 'Overview' },
  { id: 'keys', href: '/dashboard/keys', label: 'API keys' },
  { id: 'ledger', href: '/dashboard/ledger', label: 'Ledger' },
  { id: 'activity', href: '/dashboard/activity', label: 'Activity' },
  { id: 'top-up', href: '/dashboard/top-up', label: 'Auto top-up' },
  { id: 'organizations', href: '/dashboard/organizations', label: 'Organizations' },
  { id: 'security', href: '/dashboard/security', label: 'Security' },
] as const;

export type DashboardTab = (typeof DASHBOARD_TABS)[number]['id'];

/**
 * The frame of every dashboard page: the account's short id, sign-out (a CSRF-checked post) and
 * the navigation, the current section marked for assistive technology (`aria-current`).
 */
export function DashboardLayout(props: { title: string; shortId: string; csrf: string; tab: DashboardTab; suspended?: { reason: string } | null; children: Child }) {
  return (
    <Shell title={`${props.title} · Account ${props.shortId}`} styles={['/assets/dashboard.css']} wide>
      <header class="dash-head">
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
      <nav class="tabs" aria-label="Dashboard">
        <ul>
          {DASHBOARD_TABS.map((tab) => (
            <li>
              <a href={tab.href} aria-current={tab.id === props.tab ? 'page' : undefined}>
                {tab.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {props.suspended && (
        <p id="suspended" class="error" role="alert">
          This account is suspended ({props.suspended.reason}): its API keys are refused until the gateway's operator lifts the suspension. Funding it still works, and the balance is
          kept.
        </p>
      )}
      {props.children}
    </Shell>
  );
}

/** The hidden CSRF field of a dashboard form. */
/** A page's outcome after a form post: what was done (`notice`) or what was refused (`problem`). */
export function FormMessages(props: { notice?: string | undefined; problem?: string | undefined }) {
  return (
    <>
      {props.notice ? (
        <p id="notice" class="notice" role="status">
          {props.notice}
        </p>
      ) : null}
      {props.problem ? (
        <p id="form-error" class="error" role="alert">
          {props.problem}
        </p>
      ) : null}
    </>
  );
}

export function Csrf(props: { token: string }) {
  return <input type="hidden" name="csrf" value={props.token} />;
}

/** The link to a request's details page (`/dashboard/requests/<id>`). */
export const requestHref = (requestId: string) => `/dashboard/requests/${encodeURIComponent(requestId)}`;

/** A time as people read it in a table: `2026-11-25 14:03:12 UTC`. */
export function utcTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
