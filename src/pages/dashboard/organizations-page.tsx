import { MAX_INVITE_USES } from '../../accounts/invite-limits';
import type { InviteRow } from '../../../durable-objects/account/org-usage';
import type { MemberRow } from '../../../durable-objects/account/organization';
import { displayUsd, isoDay } from '../shell';
import { Csrf, DashboardLayout, FormMessages, utcTime } from './layout';
import { UsageChart } from './usage-chart';
import type { UsageSeries } from './usage';

interface Frame {
  shortId: string;
  csrf: string;
}

/** One organization the signed-in account owns, as the list shows it. */
export interface OwnedOrganization {
  id: string;
  name: string;
  balanceMicros: number;
  active: number;
  pending: number;
}

/** `/dashboard/organizations`: the organizations this account's human made, and the form that makes one. */
export function OrganizationsPage(props: Frame & { organizations: OwnedOrganization[]; name?: string; problem?: string | undefined }) {
  return (
    <DashboardLayout title="Organizations" shortId={props.shortId} csrf={props.csrf} tab="organizations">
      <section aria-labelledby="organizations-title">
        <h2 id="organizations-title">Organizations</h2>
        <p class="muted">
          An organization is a balance of its own that your agents' accounts spend from, each within a monthly cap, once you approve them. Agents join with an invite code you make on its page.
        </p>
        {props.organizations.length === 0 ? (
          <p class="empty">You have no organization yet.</p>
        ) : (
          <table class="rows" id="organizations">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col" class="num">
                  Balance
                </th>
                <th scope="col" class="num">
                  Members
                </th>
                <th scope="col" class="num">
                  Waiting for approval
                </th>
              </tr>
            </thead>
            <tbody>
              {props.organizations.map((org) => (
                <tr data-organization-id={org.id}>
                  <td data-label="Name">
                    <a href={`/dashboard/organizations/${org.id}`}>{org.name}</a>
                  </td>
                  <td data-label="Balance" class="num">
                    {displayUsd(org.balanceMicros)}
                  </td>
                  <td data-label="Members" class="num">
                    {org.active}
                  </td>
                  <td data-label="Waiting" class="num">
                    {org.pending}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="create-organization-title">
        <h2 id="create-organization-title">Create an organization</h2>
        <FormMessages problem={props.problem} />
        <form method="post" action="/dashboard/organizations" novalidate>
          <Csrf token={props.csrf} />
          <div class="name-field">
            <label for="organization-name">Name</label>
            <input type="text" id="organization-name" name="name" maxlength={100} required value={props.name ?? ''} aria-invalid={props.problem ? 'true' : undefined} />
          </div>
          <button type="submit">Create organization</button>
        </form>
      </section>
    </DashboardLayout>
  );
}

export interface NewInvite {
  id: string;
  code: string;
  capMicros: number | null;
  autoApprove: boolean;
  maxUses: number;
}

export interface OrganizationPageProps extends Frame {
  organization: { id: string; name: string; balanceMicros: number; heldMicros: number; fundUrl: string | null };
  members: MemberRow[];
  invites: InviteRow[];
  usage: UsageSeries;
  /** The invite just made: its code is on this answer only. */
  newInvite?: NewInvite | undefined;
  /** The invite form sent back with its error. */
  inviteFields?: { member_cap_usd: string; auto_approve: boolean; max_uses: string } | undefined;
  notice?: string | undefined;
  problem?: string | undefined;
}

const cap = (micros: number | null) => (micros === null ? 'no cap' : `${displayUsd(micros)} a month`);

/** `/dashboard/organizations/<id>`: the organization's money, members, requests to join, invites and spend per member. */
export function OrganizationPage(props: OrganizationPageProps) {
  const org = props.organization;
  const base = `/dashboard/organizations/${org.id}`;
  const pending = props.members.filter((member) => member.status === 'pending');
  const others = props.members.filter((member) => member.status !== 'pending');
  return (
    <DashboardLayout title={`Organization ${org.name}`} shortId={props.shortId} csrf={props.csrf} tab="organizations">
      <p>
        <a href="/dashboard/organizations">All organizations</a>
      </p>
      <FormMessages notice={props.notice} problem={props.problem} />
      {props.newInvite ? <InviteCreated invite={props.newInvite} /> : null}
      <section aria-labelledby="organization-title">
        <h2 id="organization-title">
          <span id="organization-name">{org.name}</span> <span class="muted">organization {org.id.slice(0, 8)}</span>
        </h2>
        <dl class="figures">
          <div>
            <dt>Balance</dt>
            <dd id="org-balance">{displayUsd(org.balanceMicros)}</dd>
          </div>
          <div>
            <dt>Held by members' requests in flight</dt>
            <dd id="org-held">{displayUsd(org.heldMicros)}</dd>
          </div>
        </dl>
        {org.fundUrl ? (
          <>
            <p>
              <a id="org-fund" href={org.fundUrl}>
                Add funds by card or USDC
              </a>
            </p>
            <p class="muted">
              Its fund link, for whoever pays: <code id="org-fund-url" class="link">{org.fundUrl}</code>
            </p>
          </>
        ) : null}
      </section>
      <section aria-labelledby="pending-title">
        <h2 id="pending-title">Waiting for approval</h2>
        {pending.length === 0 ? (
          <p class="empty">Nobody is waiting. An agent that joins with an invite without auto-approval appears here; until you approve it, its requests are refused.</p>
        ) : (
          <table class="rows" id="pending">
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Asked</th>
                <th scope="col">Monthly cap</th>
                <th scope="col">Decide</th>
              </tr>
            </thead>
            <tbody>
              {pending.map((member) => (
                <tr data-account-id={member.accountId}>
                  <td data-label="Account">
                    <code>{member.accountId}</code>
                  </td>
                  <td data-label="Asked">{utcTime(member.joinedAt)}</td>
                  <td data-label="Monthly cap">{cap(member.capMicros)}</td>
                  <td data-label="Decide">
                    <div class="actions">
                      <form method="post" action={`${base}/members/${member.accountId}/approve`}>
                        <Csrf token={props.csrf} />
                        <button type="submit" aria-label={`Approve ${member.accountId}`}>
                          Approve
                        </button>
                      </form>
                      <form method="post" action={`${base}/members/${member.accountId}/remove`}>
                        <Csrf token={props.csrf} />
                        <button type="submit" class="secondary" aria-label={`Refuse ${member.accountId}`}>
                          Refuse
                        </button>
                      </form>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        {others.length === 0 ? (
          <p class="empty">No members yet.</p>
        ) : (
          <table class="rows" id="members">
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Status</th>
                <th scope="col">Monthly cap</th>
                <th scope="col" class="num">
                  Spent this month
                </th>
                <th scope="col">Since</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {others.map((member) => (
                <tr data-account-id={member.accountId}>
                  <td data-label="Account">
                    <code>{member.accountId}</code>
                  </td>
                  <td data-label="Status">
                    <span class={`badge ${member.status}`}>{member.status}</span>
                  </td>
                  <td data-label="Monthly cap">{cap(member.capMicros)}</td>
                  <td data-label="Spent this month" class="num member-spend">
                    {displayUsd(member.spentThisMonthMicros)}
                  </td>
                  <td data-label="Since">{isoDay(member.leftAt ?? member.approvedAt ?? member.joinedAt)}</td>
                  <td data-label="Actions">
                    {member.status === 'active' ? (
                      <form method="post" action={`${base}/members/${member.accountId}/remove`}>
                        <Csrf token={props.csrf} />
                        <button type="submit" class="danger" aria-label={`Remove ${member.accountId}`}>
                          Remove
                        </button>
                      </form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="member-usage-title">
        <h2 id="member-usage-title">Spend per member</h2>
        {props.usage.totalMicros === 0 ? (
          <p class="empty">No member has spent anything in the last 30 days.</p>
        ) : (
          <UsageChart usage={props.usage} chart={{ id: 'member-chart', title: 'Spend per day by member, last 30 days (UTC)', series: 'Member' }} />
        )}
      </section>
      <section aria-labelledby="invites-title">
        <h2 id="invites-title">Invites</h2>
        <form method="post" action={`${base}/invites`} class="invite" novalidate>
          <Csrf token={props.csrf} />
          <div class="fields">
            <div>
              <label for="member_cap_usd">
                Monthly cap per member (USD) <span class="hint">Empty for no cap; per UTC calendar month.</span>
              </label>
              <input type="text" inputmode="decimal" id="member_cap_usd" name="member_cap_usd" value={props.inviteFields?.member_cap_usd ?? ''} placeholder="25.00" />
            </div>
            <div>
              <label for="max_uses">
                Agents who may join with it <span class="hint">1 to {MAX_INVITE_USES}; each joining account gets its own cap.</span>
              </label>
              <input type="text" inputmode="numeric" id="max_uses" name="max_uses" value={props.inviteFields?.max_uses ?? '1'} />
            </div>
            <div>
              <label class="check">
                <input type="checkbox" name="auto_approve" value="1" checked={props.inviteFields?.auto_approve ?? false} /> Approve whoever joins with it at once
              </label>
            </div>
          </div>
          <button type="submit">Create invite</button>
        </form>
        {props.invites.length === 0 ? (
          <p class="empty">No invites yet.</p>
        ) : (
          <table class="rows" id="invites">
            <thead>
              <tr>
                <th scope="col">Invite</th>
                <th scope="col">Monthly cap</th>
                <th scope="col">Approval</th>
                <th scope="col">Used</th>
                <th scope="col">Created</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {props.invites.map((invite) => (
                <tr data-invite-id={invite.id}>
                  <td data-label="Invite">
                    <code>{invite.id}</code>
                  </td>
                  <td data-label="Monthly cap">{cap(invite.capMicros)}</td>
                  <td data-label="Approval">{invite.autoApprove ? 'automatic' : 'by you'}</td>
                  <td data-label="Used">{invite.maxUses === null ? `${invite.uses} (no limit)` : `${invite.uses} of ${invite.maxUses}`}</td>
                  <td data-label="Created">{utcTime(invite.createdAt)}</td>
                  <td data-label="State">
                    {invite.revokedAt === null && invite.maxUses !== null && invite.uses >= invite.maxUses ? (
                      <span class="badge expired">used up</span>
                    ) : invite.revokedAt === null ? (
                      <form method="post" action={`${base}/invites/${invite.id}/revoke`}>
                        <Csrf token={props.csrf} />
                        <button type="submit" class="secondary" aria-label={`Revoke ${invite.id}`}>
                          Revoke
                        </button>
                      </form>
                    ) : (
                      <span class="badge revoked">revoked</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </DashboardLayout>
  );
}

/** The code of the invite just made, shown on this answer only (the organization keeps its SHA-256). */
function InviteCreated(props: { invite: NewInvite }) {
  return (
    <section aria-labelledby="invite-created-title">
      <h2 id="invite-created-title">Invite created</h2>
      <p>
        Copy this code now: it is not shown again. An agent joins with it (monthly cap: {cap(props.invite.capMicros)}; approval: {props.invite.autoApprove ? 'automatic' : 'by you'}; joins: {props.invite.maxUses}; listed
        below as <code>{props.invite.id}</code>):
      </p>
      <code class="secret" id="new-invite">
        {props.invite.code}
      </code>
      <p class="muted">
        <code>POST /agent/org/join</code> with <code>{'{"invite_code": "…"}'}</code> and the agent's own key.
      </p>
    </section>
  );
}
