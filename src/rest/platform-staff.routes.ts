import type { Router } from 'express';
import * as staff from '../services/platform/platform-staff.service.js';
import { Reply, route } from './route.js';
import { SentStaffInvitation, StaffInvitationList, StaffMember, StaffMemberList } from './responses/platform.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Platform staff';

/**
 * The platform's own staff: its members and their platform roles, invitations by email with a
 * one-time link, and the invitee's acceptance.
 */
export function platformStaffRoutes(router: Router) {
  route(router, '/admin/staff', {
    get: {
      doc: { tag, summary: "The platform's staff with their platform roles, in the order their accounts were made", permission: Permission.PlatformStaffManage, response: StaffMemberList },
      handle: async ({ ctx }) => ({ items: await staff.listStaff(ctx) }),
    },
  });
  route(router, '/admin/staff/:userId/role', {
    put: {
      doc: {
        tag, summary: "Change a staff member's platform role (the last admin cannot be demoted)", permission: Permission.PlatformStaffManage,
        body: staff.ChangeStaffRoleInput.omit({ userId: true }), response: StaffMember, errors: staff.changeStaffRoleRefusals,
      },
      handle: ({ ctx, params, body }) => staff.changeStaffRole(ctx, { ...(body as object), ...params }),
    },
  });
  route(router, '/admin/staff/:userId', {
    delete: {
      doc: {
        tag, summary: "Remove a member from the staff: the account becomes a customer's and its tokens are revoked (the last admin cannot be removed)",
        permission: Permission.PlatformStaffManage, response: null, errors: staff.removeStaffRefusals,
      },
      handle: async ({ ctx, params }) => {
        await staff.removeStaff(ctx, params);
        return new Reply(204, undefined);
      },
    },
  });
  route(router, '/admin/staff-invitations', {
    get: {
      doc: { tag, summary: 'The open staff invitations (not used, revoked or expired), newest first', permission: Permission.PlatformStaffManage, response: StaffInvitationList },
      handle: async ({ ctx }) => ({ items: await staff.listStaffInvitations(ctx) }),
    },
    post: {
      doc: {
        tag, summary: 'Invite someone to the staff by email with a platform role: the link is emailed to them, and the answer holds its one-time token, once', permission: Permission.PlatformStaffManage,
        body: staff.InviteStaffInput, response: SentStaffInvitation, status: 201, errors: staff.inviteStaffRefusals,
      },
      handle: async ({ ctx, body }) => new Reply(201, await staff.inviteStaff(ctx, body)),
    },
  });
  route(router, '/admin/staff-invitations/:invitationId/resend', {
    post: {
      doc: {
        tag, summary: 'Send an open staff invitation again with a new link (the old link stops working; the new one works a week from now)', permission: Permission.PlatformStaffManage,
        response: SentStaffInvitation, errors: staff.resendStaffInvitationRefusals,
      },
      handle: ({ ctx, params }) => staff.resendStaffInvitation(ctx, params),
    },
  });
  route(router, '/admin/staff-invitations/:invitationId', {
    delete: {
      doc: { tag, summary: 'Revoke an open staff invitation: its link stops working', permission: Permission.PlatformStaffManage, response: null, errors: staff.revokeStaffInvitationRefusals },
      handle: async ({ ctx, params }) => {
        await staff.revokeStaffInvitation(ctx, params);
        return new Reply(204, undefined);
      },
    },
  });
  route(router, '/me/staff-invitations/accept', {
    post: {
      doc: {
        tag, summary: "Accept a staff invitation (the signed-in account's email must be the invited one): join the platform's staff with its role", permission: Permission.SignedIn,
        body: staff.AcceptStaffInvitationInput, response: StaffMember, errors: staff.acceptStaffInvitationRefusals,
      },
      handle: ({ ctx, body }) => staff.acceptStaffInvitation(ctx, body),
    },
  });
}
