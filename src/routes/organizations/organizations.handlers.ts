import type { RouteHandler } from '@hono/zod-openapi';
import type { JoinRefusal } from '../../../durable-objects/account/membership';
import type { MemberRow } from '../../../durable-objects/account/organization';
import type { InviteRow } from '../../../durable-objects/account/org-usage';
import type { AuthFailure } from '../../../durable-objects/account/types';
import { AccountClient } from '../../accounts/account-client';
import { newClaimToken, newFundToken, newInviteCode, organizationIdOfInvite, sha256Hex } from '../../accounts/credentials';
import { holdFailureError } from '../../accounts/failures';
import { database } from '../../db';
import { insertAccount } from '../../db/accounts';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { formatUsd, parseUsd } from '../../money';
import { fundUrl, publicBaseUrl } from '../../urls';
import type { approveMember, createInvite, createOrganization, getOrganization, joinOrganization, leaveOrganization, removeMember, revokeInvite } from './organizations.routes';

/**
 * D29's routes. An organization is an account (its own Durable Object, ledger and fund link); its
 * object keeps the members and invites, and a member's object only which organization it is in.
 * Each route is one call to one of them; that object calls the other when both must change.
 */

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const noOrganization = (id: string) => new GatewayError('not_found', `No organization ${id}.`, { param: 'organization_id' });
const organization = (env: Env, id: string) => new AccountClient(env, id).direct();

export function memberBody(member: MemberRow) {
  return {
    account_id: member.accountId,
    status: member.status,
    member_cap_usd: member.capMicros === null ? null : formatUsd(member.capMicros),
    spent_this_month_usd: formatUsd(member.spentThisMonthMicros),
    joined_at: new Date(member.joinedAt).toISOString(),
    approved_at: iso(member.approvedAt),
    left_at: iso(member.leftAt),
  };
}

function inviteBody(invite: InviteRow) {
  return {
    invite_id: invite.id,
    member_cap_usd: invite.capMicros === null ? null : formatUsd(invite.capMicros),
    auto_approve: invite.autoApprove,
    uses: invite.uses,
    max_uses: invite.maxUses,
    created_at: new Date(invite.createdAt).toISOString(),
    revoked_at: iso(invite.revokedAt),
  };
}

export const createOrganizationHandler: RouteHandler<typeof createOrganization, AppEnv> = async (c) => {
  const { name } = c.req.valid('json');
  const organizationId = crypto.randomUUID();
  const fundToken = newFundToken();
  // The index row first, as for any account (the fund page finds it by its token); it never expires.
  await insertAccount(database(c.env), organizationId, Date.now(), null, await sha256Hex(fundToken));
  await c.env.ACCOUNT.get(c.env.ACCOUNT.idFromName(organizationId)).createOrganization({
    accountId: organizationId,
    name,
    // Nobody holds the claim token: a human takes an organization over from the dashboard.
    claimTokenHash: await sha256Hex(newClaimToken(organizationId)),
    fundToken,
  });
  return c.json({ organization_id: organizationId, name, fund_url: fundUrl(publicBaseUrl(c), fundToken) }, 201);
};

export const getOrganizationHandler: RouteHandler<typeof getOrganization, AppEnv> = async (c) => {
  const { organization_id } = c.req.valid('param');
  const stub = await organization(c.env, organization_id);
  const [view, members, invites] = await Promise.all([stub.view(), stub.organizationMembers(), stub.organizationInvites(100)]);
  if (!view || !members || !invites) throw noOrganization(organization_id);
  return c.json(
    {
      organization_id,
      name: view.name ?? '',
      fund_url: view.fundToken ? fundUrl(publicBaseUrl(c), view.fundToken) : null,
      balance_usd: formatUsd(view.balanceMicros),
      held_usd: formatUsd(view.heldMicros),
      members: members.map(memberBody),
      invites: invites.map(inviteBody),
    },
    200,
  );
};

export const createInviteHandler: RouteHandler<typeof createInvite, AppEnv> = async (c) => {
  const { organization_id } = c.req.valid('param');
  const body = c.req.valid('json');
  const capMicros = body.member_cap_usd === undefined ? null : parseUsd(body.member_cap_usd);
  const terms = { capMicros, autoApprove: body.auto_approve === true, maxUses: body.max_uses ?? 1 };
  const code = newInviteCode(organization_id);
  const inviteId = await (await organization(c.env, organization_id)).createInvite(await sha256Hex(code), terms);
  if (inviteId === null) throw noOrganization(organization_id);
  return c.json(
    { invite_code: code, invite_id: inviteId, member_cap_usd: capMicros === null ? null : formatUsd(capMicros), auto_approve: terms.autoApprove, uses: 0, max_uses: terms.maxUses },
    201,
  );
};

export const revokeInviteHandler: RouteHandler<typeof revokeInvite, AppEnv> = async (c) => {
  const { organization_id, invite_id } = c.req.valid('param');
  if (!(await (await organization(c.env, organization_id)).revokeInvite(invite_id))) {
    throw new GatewayError('not_found', `No invite ${invite_id} of organization ${organization_id}.`, { param: 'invite_id' });
  }
  return c.json({ invite_id, revoked: true as const }, 200);
};

const noMember = (organizationId: string, accountId: string, what: string) =>
  new GatewayError('not_found', `Account ${accountId} is not ${what} of organization ${organizationId}.`, { param: 'account_id' });

export const approveMemberHandler: RouteHandler<typeof approveMember, AppEnv> = async (c) => {
  const { organization_id, account_id } = c.req.valid('param');
  const member = await (await organization(c.env, organization_id)).approveMember(account_id);
  if (!member) throw noMember(organization_id, account_id, 'a pending or active member');
  return c.json(memberBody(member), 200);
};

export const removeMemberHandler: RouteHandler<typeof removeMember, AppEnv> = async (c) => {
  const { organization_id, account_id } = c.req.valid('param');
  const member = await (await organization(c.env, organization_id)).removeMember(account_id);
  if (!member) throw noMember(organization_id, account_id, 'a pending or active member');
  return c.json(memberBody(member), 200);
};

const invalidInvite = () => new GatewayError('not_found', 'No such invite (it may have been revoked or used up).', { param: 'invite_code' });

export const joinOrganizationHandler: RouteHandler<typeof joinOrganization, AppEnv> = async (c) => {
  const { invite_code } = c.req.valid('json');
  const organizationId = organizationIdOfInvite(invite_code);
  if (!organizationId) throw invalidInvite();
  const caller = c.get('caller');
  const result = await (await caller.account.direct()).joinOrganization(caller.keyHash, organizationId, await sha256Hex(invite_code));
  if (!result.ok) throw joinRefusal(result);
  return c.json({ organization_id: result.organizationId, status: result.status }, 200);
};

export const leaveOrganizationHandler: RouteHandler<typeof leaveOrganization, AppEnv> = async (c) => {
  const caller = c.get('caller');
  const result = await (await caller.account.direct()).leaveOrganization(caller.keyHash);
  if (!result.ok) throw joinRefusal(result);
  if (result.organizationId === null) throw new GatewayError('not_found', 'This account is not a member of an organization.');
  return c.json({ organization_id: result.organizationId, status: 'left' as const }, 200);
};

function joinRefusal(refusal: AuthFailure | JoinRefusal): GatewayError {
  switch (refusal.reason) {
    case 'invalid_invite':
      return invalidInvite();
    case 'already_member':
      return new GatewayError('invalid_request', `This account is a member of organization ${refusal.organizationId}; leave it first (POST /agent/org/leave).`, { param: 'invite_code' });
    case 'organization_cannot_join':
      return new GatewayError('invalid_request', 'An organization cannot join an organization.', { param: 'invite_code' });
    case 'key_not_allowed':
      return new GatewayError('guardrail_blocked', 'Only a key that is neither a sub-key nor spend-limited may join or leave an organization: it changes which balance every key of the account spends.');
    default:
      return holdFailureError(refusal);
  }
}
