import type { Router } from 'express';
import * as members from '../services/shops/shop-members.service.js';
import { Reply, route } from './route.js';
import { JoinedShop, MemberInvitationList, SentInvitation, ShopMember, ShopMemberList } from './responses/shops.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Shop members';

/**
 * A shop's staff: its members and their roles, invitations by email with a one-time link, and the
 * invitee's acceptance. The shop is the one the request acts for (`X-Shop-Id`).
 */
export function shopMemberRoutes(router: Router) {
  route(router, '/merchant/members', {
    get: {
      doc: { tag, summary: "The shop's members with their roles, in the order they joined", permission: Permission.ShopMembersRead, response: ShopMemberList },
      handle: async ({ ctx }) => ({ items: await members.listMembers(ctx) }),
    },
  });
  route(router, '/merchant/members/:userId/role', {
    put: {
      doc: {
        tag, summary: "Change a member's role (the last owner cannot be demoted)", permission: Permission.ShopMembersManage,
        body: members.ChangeMemberRoleInput.omit({ userId: true }), response: ShopMember, errors: members.changeMemberRoleRefusals,
      },
      handle: ({ ctx, params, body }) => members.changeMemberRole(ctx, { ...(body as object), ...params }),
    },
  });
  route(router, '/merchant/members/:userId', {
    delete: {
      doc: { tag, summary: 'Remove a member from the shop (the last owner cannot be removed)', permission: Permission.ShopMembersManage, response: null, errors: members.removeMemberRefusals },
      handle: async ({ ctx, params }) => {
        await members.removeMember(ctx, params);
        return new Reply(204, undefined);
      },
    },
  });
  route(router, '/merchant/invitations', {
    get: {
      doc: { tag, summary: "The shop's open invitations (not used, revoked or expired), newest first", permission: Permission.ShopMembersRead, response: MemberInvitationList },
      handle: async ({ ctx }) => ({ items: await members.listInvitations(ctx) }),
    },
    post: {
      doc: {
        tag, summary: 'Invite someone by email with a role: the link is emailed to them, and the answer holds its one-time token, once', permission: Permission.ShopMembersManage,
        body: members.InviteMemberInput, response: SentInvitation, status: 201, errors: members.inviteMemberRefusals,
      },
      handle: async ({ ctx, body }) => new Reply(201, await members.inviteMember(ctx, body)),
    },
  });
  route(router, '/merchant/invitations/:invitationId/resend', {
    post: {
      doc: {
        tag, summary: 'Send an open invitation again with a new link (the old link stops working; the new one works a week from now)', permission: Permission.ShopMembersManage,
        response: SentInvitation, errors: members.resendInvitationRefusals,
      },
      handle: ({ ctx, params }) => members.resendInvitation(ctx, params),
    },
  });
  route(router, '/merchant/invitations/:invitationId', {
    delete: {
      doc: { tag, summary: 'Revoke an open invitation: its link stops working', permission: Permission.ShopMembersManage, response: null, errors: members.revokeInvitationRefusals },
      handle: async ({ ctx, params }) => {
        await members.revokeInvitation(ctx, params);
        return new Reply(204, undefined);
      },
    },
  });
  route(router, '/me/invitations/accept', {
    post: {
      doc: {
        tag, summary: "Accept an invitation (the signed-in account's email must be the invited one): join the shop with its role", permission: Permission.SignedIn,
        body: members.AcceptInvitationInput, response: JoinedShop, errors: members.acceptInvitationRefusals,
      },
      handle: ({ ctx, body }) => members.acceptInvitation(ctx, body),
    },
  });
}
