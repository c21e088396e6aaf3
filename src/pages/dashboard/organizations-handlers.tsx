import type { Context } from 'hono';
import type { OwnerAction } from '../../../durable-objects/account/org-owner';
import { MAX_INVITE_USES } from '../../accounts/invite-limits';
import { newClaimToken, newFundToken, newInviteCode, sha256Hex } from '../../accounts/credentials';
import { database } from '../../db';
import { insertAccount, markClaimed } from '../../db/accounts';
import type { AppEnv } from '../../env';
import { accountStub } from '../../human/claims';
import { parseUsd } from '../../money';
import { fundUrl, publicBaseUrl } from '../../urls';
import { readFormPost } from '../form-post';
import { checkCsrf, pageHeaders } from '../security';
import { dashboardCsrf, signedIn, signedInPost, type SignedIn } from './handlers';
import { spendByDayAndMember } from './member-usage';
import { notFoundPage } from './not-found';
import { OrganizationPage, OrganizationsPage, type NewInvite, type OrganizationPageProps, type OwnedOrganization } from './organizations-page';
import { windowStart } from './usage';

/**
 * D29 in the dashboard: a claimed account's human makes organizations and runs them as the
 * operator's routes do, plus spend per member. The organization's Durable Object records its
 * owner and answers only that account (`organizationForOwner`, `actAsOwner`): an organization of
 * another account, or none, is the same 404. Every post is CSRF-checked before anything changes.
 */

const LIST = '/dashboard/organizations';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INVITE_ID = /^inv_[A-Za-z0-9]{20}$/;
/** As the operator's invite route: a non-negative decimal USD string, at most 6 decimals. */
const CAP = /^\d{1,9}(\.\d{1,6})?$/;

const NOTICES: Record<string, string> = {
  created: 'Organization created. Fund it, then make an invite for your agents.',
  approved: 'Member approved: its requests now spend the organization’s balance.',
  refused: 'Request refused: the account spends its own balance.',
  removed: 'Member removed: from its next request it spends its own balance.',
  revoked: 'Invite revoked: nobody joins with it from now on (members who joined with it stay).',
};

const frame = (c: Context<AppEnv>, human: SignedIn) => ({ shortId: human.account.accountId.slice(0, 8), csrf: dashboardCsrf(c) });
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

const notFound = (c: Context<AppEnv>, human: SignedIn) => notFoundPage(c, { ...frame(c, human), tab: 'organizations', message: 'You own no such organization.' });

/** The organization `:id`, when the signed-in account owns it; null for any other id. */
async function owned(c: Context<AppEnv>, human: SignedIn, now: number) {
  const id = c.req.param('id') ?? '';
  if (!UUID.test(id)) return null;
  const view = await accountStub(c.env, id).organizationForOwner(human.account.accountId, windowStart(now));
  return view ? { id, ...view } : null;
}

/** `GET /dashboard/organizations`. */
export async function organizationsPage(c: Context<AppEnv>): Promise<Response> {
  const human = await signedIn(c, Date.now());
  if (human instanceof Response) return human;
  return renderList(c, human, {});
}

async function renderList(c: Context<AppEnv>, human: SignedIn, extra: { name?: string; problem?: string }, status: 200 | 400 = 200): Promise<Response> {
  const now = Date.now();
  const ids = await accountStub(c.env, human.account.accountId).ownedOrganizations();
  const views = await Promise.all(ids.map((id) => accountStub(c.env, id).organizationForOwner(human.account.accountId, now)));
  const organizations: OwnedOrganization[] = [];
  views.forEach((view, i) => {
    // A listed id whose organization was never made (a failure between the two writes) shows nothing.
    if (!view) return;
    organizations.push({
      id: ids[i]!,
      name: view.account.name ?? '',
      balanceMicros: view.account.balanceMicros,
      active: view.members.filter((member) => member.status === 'active').length,
      pending: view.members.filter((member) => member.status === 'pending').length,
    });
  });
  return c.html(<OrganizationsPage {...frame(c, human)} organizations={organizations} {...extra} />, status, pageHeaders());
}

/**
 * `POST /dashboard/organizations`: a new organization owned by the signed-in account. The
 * owner's list takes its id first, then D1's index row (as for any account: the fund page finds
 * it by its token), then the organization itself, which records its owner; a failure midway leaves
 * at most a listed id that resolves to nothing.
 */
export async function createOrganization(c: Context<AppEnv>): Promise<Response> {
  const req = await signedInPost(c);
  if (req instanceof Response) return req;
  const { human, form } = req;
  const name = text(form.name);
  if (name.length === 0 || name.length > 100) return renderList(c, human, { name, problem: 'Enter a name of 1 to 100 characters.' }, 400);
  const ownerId = human.account.accountId;
  const organizationId = crypto.randomUUID();
  const reserved = await accountStub(c.env, ownerId).reserveOwnedOrganization(organizationId);
  if (!reserved.ok) {
    const problem = reserved.reason === 'too_many_organizations' ? 'This account already owns as many organizations as it may.' : 'Only a claimed account can own an organization.';
    return renderList(c, human, { name, problem }, 400);
  }
  const now = Date.now();
  const fundToken = newFundToken();
  const db = database(c.env);
  await insertAccount(db, organizationId, now, null, await sha256Hex(fundToken));
  await accountStub(c.env, organizationId).createOwnedOrganization({
    accountId: organizationId,
    name,
    // Nobody holds the claim token: its owner runs it from here.
    claimTokenHash: await sha256Hex(newClaimToken(organizationId)),
    fundToken,
    ownerAccountId: ownerId,
  });
  await markClaimed(db, organizationId, now);
  return c.redirect(`${LIST}/${organizationId}?created`, 303);
}

/** `GET /dashboard/organizations/:id`. */
export async function organizationPage(c: Context<AppEnv>): Promise<Response> {
  const human = await signedIn(c, Date.now());
  if (human instanceof Response) return human;
  const notice = Object.keys(NOTICES).find((name) => c.req.query(name) !== undefined);
  return renderOrganization(c, human, { notice: notice ? NOTICES[notice] : undefined });
}

type Extra = Pick<OrganizationPageProps, 'newInvite' | 'inviteFields' | 'notice' | 'problem'>;

async function renderOrganization(c: Context<AppEnv>, human: SignedIn, extra: Extra, status: 200 | 400 = 200): Promise<Response> {
  const now = Date.now();
  const org = await owned(c, human, now);
  if (!org) return notFound(c, human);
  const { account } = org;
  return c.html(
    <OrganizationPage
      {...frame(c, human)}
      organization={{
        id: org.id,
        name: account.name ?? '',
        balanceMicros: account.balanceMicros,
        heldMicros: account.heldMicros,
        fundUrl: account.fundToken ? fundUrl(publicBaseUrl(c), account.fundToken) : null,
      }}
      members={org.members}
      invites={org.invites}
      usage={spendByDayAndMember(org.daily, now)}
      {...extra}
    />,
    status,
    pageHeaders(),
  );
}

/** An owner's act on `:id`; the 404 page unless the signed-in account owns it and the invite or member exists. */
async function act(c: Context<AppEnv>, human: SignedIn, action: OwnerAction) {
  const id = c.req.param('id') ?? '';
  if (!UUID.test(id)) return null;
  const result = await accountStub(c.env, id).actAsOwner(human.account.accountId, action);
  return result.ok ? result : null;
}

/** `POST /dashboard/organizations/:id/invites`: an invite with a monthly cap, auto-approval or not, and how many may join with it (default 1); its code is on this answer only. */
export async function createInvite(c: Context<AppEnv>): Promise<Response> {
  const req = await signedInPost(c);
  if (req instanceof Response) return req;
  const { human, form } = req;
  const capText = text(form.member_cap_usd);
  const autoApprove = form.auto_approve !== undefined;
  const usesText = text(form.max_uses);
  const capMicros = capText === '' ? null : CAP.test(capText) ? parseUsd(capText) : null;
  const fields = { member_cap_usd: capText, auto_approve: autoApprove, max_uses: usesText };
  if (capText !== '' && capMicros === null) {
    return renderOrganization(c, human, { inviteFields: fields, problem: 'Enter the monthly cap in USD, e.g. 25.00, or leave it empty for no cap.' }, 400);
  }
  const maxUses = usesText === '' ? 1 : /^\d{1,4}$/.test(usesText) ? Number(usesText) : 0;
  if (maxUses < 1 || maxUses > MAX_INVITE_USES) {
    return renderOrganization(c, human, { inviteFields: fields, problem: `Enter how many agents may join with it, 1 to ${MAX_INVITE_USES}.` }, 400);
  }
  const id = c.req.param('id') ?? '';
  const code = UUID.test(id) ? newInviteCode(id) : '';
  const done = code ? await act(c, human, { op: 'invite', hash: await sha256Hex(code), terms: { capMicros, autoApprove, maxUses } }) : null;
  if (!done?.inviteId) return notFound(c, human);
  const newInvite: NewInvite = { id: done.inviteId, code, capMicros, autoApprove, maxUses };
  return renderOrganization(c, human, { newInvite });
}

/** `POST /dashboard/organizations/:id/invites/:invite/revoke`. */
export async function revokeInvite(c: Context<AppEnv>): Promise<Response> {
  const req = await signedInPost(c);
  if (req instanceof Response) return req;
  const inviteId = c.req.param('invite') ?? '';
  const done = INVITE_ID.test(inviteId) ? await act(c, req.human, { op: 'revoke', inviteId }) : null;
  if (!done) return notFound(c, req.human);
  return c.redirect(`${LIST}/${c.req.param('id')}?revoked`, 303);
}

/** `POST /dashboard/organizations/:id/members/:member/approve`. */
export async function approveMember(c: Context<AppEnv>): Promise<Response> {
  const req = await signedInPost(c);
  if (req instanceof Response) return req;
  const accountId = c.req.param('member') ?? '';
  const done = UUID.test(accountId) ? await act(c, req.human, { op: 'approve', accountId }) : null;
  if (!done) return notFound(c, req.human);
  return c.redirect(`${LIST}/${c.req.param('id')}?approved`, 303);
}

/** `POST /dashboard/organizations/:id/members/:member/remove`: refuses a pending member or removes an active one. */
export async function removeMember(c: Context<AppEnv>): Promise<Response> {
  const req = await signedInPost(c);
  if (req instanceof Response) return req;
  const accountId = c.req.param('member') ?? '';
  const done = UUID.test(accountId) ? await act(c, req.human, { op: 'remove', accountId }) : null;
  if (!done?.member) return notFound(c, req.human);
  return c.redirect(`${LIST}/${c.req.param('id')}?${done.member.status === 'refused' ? 'refused' : 'removed'}`, 303);
}
