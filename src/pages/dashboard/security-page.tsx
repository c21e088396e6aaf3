import { isoDay } from '../shell';
import { Csrf, DashboardLayout, FormMessages, utcTime } from './layout';

export interface PasskeyItem {
  id: string;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface SessionItem {
  /** The first 16 hex digits of the session's token hash: enough to name it, never the cookie. */
  id: string;
  createdAt: number;
  expiresAt: number;
  current: boolean;
}

/** A credential id as a person can tell keys apart: its first and last characters. */
function shortCredential(id: string): string {
  return id.length <= 16 ? id : `${id.slice(0, 8)}…${id.slice(-6)}`;
}

/** `/dashboard/security`: the account's passkeys and signed-in sessions, each revocable, and sign-out everywhere. */
export function SecurityPage(props: { shortId: string; csrf: string; passkeys: PasskeyItem[]; sessions: SessionItem[]; notice?: string; problem?: string }) {
  return (
    <DashboardLayout title="Security" shortId={props.shortId} csrf={props.csrf} tab="security">
      <FormMessages notice={props.notice} problem={props.problem} />
      <section aria-labelledby="passkeys-title">
        <h2 id="passkeys-title">Passkeys</h2>
        <p class="muted">The passkeys that sign in to this account. Remove any you do not recognise; removing your last one leaves only the operator to let you in again.</p>
        <table class="rows" id="passkeys">
          <thead>
            <tr>
              <th scope="col">Passkey</th>
              <th scope="col">Added</th>
              <th scope="col">Last used</th>
              <th scope="col">
                Action
              </th>
            </tr>
          </thead>
          <tbody>
            {props.passkeys.map((passkey) => (
              <tr data-passkey-id={passkey.id}>
                <td data-label="Passkey">
                  <code>{shortCredential(passkey.id)}</code>
                </td>
                <td data-label="Added">{isoDay(passkey.createdAt)}</td>
                <td data-label="Last used">{passkey.lastUsedAt === null ? 'never' : utcTime(passkey.lastUsedAt)}</td>
                <td>
                  <form method="post" action="/dashboard/security/passkeys/revoke">
                    <Csrf token={props.csrf} />
                    <input type="hidden" name="passkey" value={passkey.id} />
                    <button type="submit" class="danger" aria-label={`Remove passkey ${shortCredential(passkey.id)}`}>
                      Remove
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {props.passkeys.length === 0 ? <p class="muted">No passkeys.</p> : null}
      </section>
      <section aria-labelledby="sessions-title">
        <h2 id="sessions-title">Signed-in sessions</h2>
        <table class="rows" id="sessions">
          <thead>
            <tr>
              <th scope="col">Session</th>
              <th scope="col">Started</th>
              <th scope="col">Ends</th>
              <th scope="col">
                Action
              </th>
            </tr>
          </thead>
          <tbody>
            {props.sessions.map((session) => (
              <tr data-session-id={session.id}>
                <td data-label="Session">
                  <code>{session.id.slice(0, 8)}</code> {session.current ? <span class="badge active">this browser</span> : null}
                </td>
                <td data-label="Started">{utcTime(session.createdAt)}</td>
                <td data-label="Ends">{isoDay(session.expiresAt)}</td>
                <td>
                  <form method="post" action="/dashboard/security/sessions/revoke">
                    <Csrf token={props.csrf} />
                    <input type="hidden" name="session" value={session.id} />
                    <button type="submit" class="secondary" aria-label={`Sign out session ${session.id.slice(0, 8)}`}>
                      Sign out
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <form method="post" action="/dashboard/security/signout-everywhere">
          <Csrf token={props.csrf} />
          <button type="submit" class="danger">
            Sign out everywhere
          </button>
        </form>
      </section>
    </DashboardLayout>
  );
}
