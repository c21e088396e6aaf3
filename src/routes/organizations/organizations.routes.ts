import { createRoute, z } from '@hono/zod-openapi';
import { adminToken } from '../../middleware/admin-token';
import { apiKey } from '../../middleware/api-key';
import { x402Payment } from '../../x402/middleware';
import { KiB, limitBody } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { MAX_INVITE_USES } from '../../accounts/invite-limits';
import { bearerAuth, errors, jsonBody, jsonResponse, UsdString } from '../schemas';

/** D29 organizations: the operator's routes (`/admin/organizations`) and a member's (`/agent/org`). */

const OrganizationIdParam = z.object({ organization_id: z.uuid().openapi({ param: { name: 'organization_id', in: 'path' } }) });
const MemberParam = OrganizationIdParam.extend({ account_id: z.uuid().openapi({ param: { name: 'account_id', in: 'path' } }) });
const InviteParam = OrganizationIdParam.extend({ invite_id: z.string().min(1).max(100).openapi({ param: { name: 'invite_id', in: 'path' } }) });

export const Invite = z
  .object({
    invite_id: z.string(),
    member_cap_usd: UsdString.nullable(),
    auto_approve: z.boolean(),
    uses: z.int().openapi({ description: 'Accounts that joined with it.' }),
    max_uses: z.int().nullable().openapi({ description: 'How many may; null for an invite made before invites were counted (unbounded).' }),
    created_at: z.iso.datetime(),
    revoked_at: z.iso.datetime().nullable(),
  })
  .openapi('OrganizationInvite');

export const Member = z
  .object({
    account_id: z.uuid(),
    status: z.enum(['pending', 'active', 'left', 'refused', 'removed']),
    member_cap_usd: UsdString.nullable(),
    spent_this_month_usd: UsdString,
    joined_at: z.iso.datetime(),
    approved_at: z.iso.datetime().nullable(),
    left_at: z.iso.datetime().nullable(),
  })
  .openapi('OrganizationMember');

const Organization = z.object({ organization_id: z.uuid(), name: z.string(), fund_url: z.url().nullable() });

const admin = { tags: ['admin'], security: bearerAuth };
const agent = { tags: ['agent'], security: bearerAuth };

export const createOrganization = createRoute({
  ...admin,
  method: 'post',
  path: '/admin/organizations',
  summary: 'Create an organization: an account with a name and no key, that member accounts spend from',
  description: 'Fund it like any account, e.g. `POST /admin/accounts/{organization_id}/credits`, or through its fund_url.',
  middleware: [adminToken(), limitBody(16 * KiB), parseJsonBody()] as const,
  request: { body: jsonBody(z.object({ name: z.string().trim().min(1).max(100) })) },
  responses: { 201: jsonResponse(Organization, 'The organization'), ...errors(400, 401) },
});

export const getOrganization = createRoute({
  ...admin,
  method: 'get',
  path: '/admin/organizations/{organization_id}',
  summary: 'An organization: its balance, members (status, cap, spend this month) and invites (uses and max_uses)',
  middleware: [adminToken()] as const,
  request: { params: OrganizationIdParam },
  responses: {
    200: jsonResponse(
      Organization.extend({ balance_usd: UsdString, held_usd: UsdString, members: z.array(Member), invites: z.array(Invite).openapi({ description: 'The newest 100, revoked ones included.' }) }),
      'The organization',
    ),
    ...errors(401, 404),
  },
});

export const createInvite = createRoute({
  ...admin,
  method: 'post',
  path: '/admin/organizations/{organization_id}/invites',
  summary: 'An invite code for `max_uses` joins (default 1) until revoked, with a monthly cap per member and auto-approval or not',
  middleware: [adminToken(), limitBody(16 * KiB), parseJsonBody()] as const,
  request: {
    params: OrganizationIdParam,
    body: jsonBody(
      z.object({
        member_cap_usd: z.string().regex(/^\d{1,9}(\.\d{1,6})?$/, 'a non-negative decimal USD string').optional().openapi({ example: '25.00', description: 'Per UTC calendar month; absent for no cap.' }),
        auto_approve: z.boolean().optional(),
        max_uses: z
          .int()
          .min(1)
          .max(MAX_INVITE_USES)
          .optional()
          .openapi({ example: 1, description: `How many accounts may join with it: 1 (the default) to ${MAX_INVITE_USES}. A used-up invite is refused as a revoked one.` }),
      }),
    ),
  },
  responses: {
    201: jsonResponse(
      z.object({
        invite_code: z.string().openapi({ description: 'Shown once.' }),
        invite_id: z.string(),
        member_cap_usd: UsdString.nullable(),
        auto_approve: z.boolean(),
        uses: z.int(),
        max_uses: z.int(),
      }),
      'The invite',
    ),
    ...errors(400, 401, 404),
  },
});

export const revokeInvite = createRoute({
  ...admin,
  method: 'delete',
  path: '/admin/organizations/{organization_id}/invites/{invite_id}',
  summary: 'Revoke an invite: it joins nobody from now on (members who joined with it stay)',
  middleware: [adminToken()] as const,
  request: { params: InviteParam },
  responses: { 200: jsonResponse(z.object({ invite_id: z.string(), revoked: z.literal(true) }), 'Revoked'), ...errors(401, 404) },
});

export const approveMember = createRoute({
  ...admin,
  method: 'post',
  path: '/admin/organizations/{organization_id}/members/{account_id}/approve',
  summary: 'Approve a pending member: its billed requests then spend the organization\'s balance',
  middleware: [adminToken()] as const,
  request: { params: MemberParam },
  responses: { 200: jsonResponse(Member, 'The member'), ...errors(401, 404) },
});

export const removeMember = createRoute({
  ...admin,
  method: 'post',
  path: '/admin/organizations/{organization_id}/members/{account_id}/remove',
  summary: 'Refuse a pending member or remove an active one: it spends its own balance again',
  middleware: [adminToken()] as const,
  request: { params: MemberParam },
  responses: { 200: jsonResponse(Member, 'The member'), ...errors(401, 404) },
});

export const joinOrganization = createRoute({
  ...agent,
  method: 'post',
  path: '/agent/org/join',
  summary: 'Join an organization with an invite code: pending until approved, or active at once',
  middleware: [apiKey(), x402Payment(), limitBody(16 * KiB), parseJsonBody()] as const,
  request: { body: jsonBody(z.object({ invite_code: z.string().min(1).max(200) })) },
  responses: { 200: jsonResponse(z.object({ organization_id: z.uuid(), status: z.enum(['pending', 'active']) }), 'The membership'), ...errors(400, 401, 403, 404, 429) },
});

export const leaveOrganization = createRoute({
  ...agent,
  method: 'post',
  path: '/agent/org/leave',
  summary: 'Leave the organization: from the next request on, the account spends its own balance',
  middleware: [apiKey(), x402Payment()] as const,
  responses: { 200: jsonResponse(z.object({ organization_id: z.uuid(), status: z.literal('left') }), 'Left'), ...errors(401, 403, 404, 429) },
});
