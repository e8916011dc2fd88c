import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import * as staff from '../services/platform/platform-staff.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { answer } from './answer.js';
import {
  AcceptStaffInvitationInput, AcceptStaffInvitationPayload, ChangeStaffRoleInput, ChangeStaffRolePayload, InviteStaffInput, InviteStaffPayload,
  RemoveStaffInput, RemoveStaffPayload, ResendStaffInvitationInput, ResendStaffInvitationPayload, RevokeStaffInvitationInput, RevokeStaffInvitationPayload, StaffInvitation, StaffMember,
} from './types/platform-staff.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

/** The twins of `/api/admin/staff`, `/api/admin/staff-invitations` and `/api/me/staff-invitations/accept`. */
@Resolver()
export class PlatformStaffResolver {
  @Allow(Permission.PlatformStaffManage)
  @Query(() => [StaffMember], { description: "The platform's staff with their platform roles, in the order their accounts were made" })
  platformStaff(@Ctx() { ctx }: GraphQLContext) {
    return staff.listStaff(ctx);
  }

  @Allow(Permission.PlatformStaffManage)
  @Query(() => [StaffInvitation], { description: 'The open staff invitations, newest first' })
  staffInvitations(@Ctx() { ctx }: GraphQLContext) {
    return staff.listStaffInvitations(ctx);
  }

  @Allow(Permission.PlatformStaffManage)
  @Mutation(() => InviteStaffPayload, { description: 'Invite someone to the staff by email with a platform role: the answer holds the one-time link token, once' })
  inviteStaff(@Arg('input', () => InviteStaffInput) input: InviteStaffInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, InviteStaffPayload, () => staff.inviteStaff(ctx, { ...input }));
  }

  @Allow(Permission.PlatformStaffManage)
  @Mutation(() => ResendStaffInvitationPayload, { description: 'Send an open staff invitation again with a new link: the old link stops working, the new one works a week from now' })
  resendStaffInvitation(@Arg('input', () => ResendStaffInvitationInput) input: ResendStaffInvitationInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ResendStaffInvitationPayload, () => staff.resendStaffInvitation(ctx, { ...input }));
  }

  @Allow(Permission.PlatformStaffManage)
  @Mutation(() => RevokeStaffInvitationPayload, { description: 'Revoke an open staff invitation: its link stops working' })
  revokeStaffInvitation(@Arg('input', () => RevokeStaffInvitationInput) input: RevokeStaffInvitationInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, RevokeStaffInvitationPayload, async () => {
      await staff.revokeStaffInvitation(ctx, { ...input });
      return input.invitationId;
    });
  }

  @Allow(Permission.SignedIn)
  @Mutation(() => AcceptStaffInvitationPayload, { description: "Accept a staff invitation (the signed-in account's email must be the invited one)" })
  acceptStaffInvitation(@Arg('input', () => AcceptStaffInvitationInput) input: AcceptStaffInvitationInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, AcceptStaffInvitationPayload, () => staff.acceptStaffInvitation(ctx, { ...input }));
  }

  @Allow(Permission.PlatformStaffManage)
  @Mutation(() => ChangeStaffRolePayload, { description: "Change a staff member's platform role (the last admin cannot be demoted)" })
  changeStaffRole(@Arg('input', () => ChangeStaffRoleInput) input: ChangeStaffRoleInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ChangeStaffRolePayload, () => staff.changeStaffRole(ctx, { ...input }));
  }

  @Allow(Permission.PlatformStaffManage)
  @Mutation(() => RemoveStaffPayload, { description: "Remove a member from the staff: the account becomes a customer's and its tokens are revoked (the last admin cannot be removed)" })
  removeStaff(@Arg('input', () => RemoveStaffInput) input: RemoveStaffInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, RemoveStaffPayload, async () => {
      await staff.removeStaff(ctx, { ...input });
      return input.userId;
    });
  }
}
