import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import * as members from '../services/shops/shop-members.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { answer } from './answer.js';
import {
  AcceptInvitationInput, AcceptInvitationPayload, ChangeMemberRoleInput, ChangeMemberRolePayload, InviteMemberInput, InviteMemberPayload,
  MemberInvitation, RemoveMemberInput, RemoveMemberPayload, ResendInvitationInput, ResendInvitationPayload, RevokeInvitationInput, RevokeInvitationPayload, ShopMember,
} from './types/shop-member.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

/** The twins of `/api/merchant/members`, `/api/merchant/invitations` and `/api/me/invitations/accept`. */
@Resolver()
export class ShopMemberResolver {
  @Allow(Permission.ShopMembersRead)
  @Query(() => [ShopMember], { description: "The acting shop's members with their roles, in the order they joined" })
  shopMembers(@Ctx() { ctx }: GraphQLContext) {
    return members.listMembers(ctx);
  }

  @Allow(Permission.ShopMembersRead)
  @Query(() => [MemberInvitation], { description: "The acting shop's open invitations, newest first" })
  memberInvitations(@Ctx() { ctx }: GraphQLContext) {
    return members.listInvitations(ctx);
  }

  @Allow(Permission.ShopMembersManage)
  @Mutation(() => InviteMemberPayload, { description: 'Invite someone by email with a role: the answer holds the one-time link token, once' })
  inviteMember(@Arg('input', () => InviteMemberInput) input: InviteMemberInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, InviteMemberPayload, () => members.inviteMember(ctx, { ...input }));
  }

  @Allow(Permission.ShopMembersManage)
  @Mutation(() => ResendInvitationPayload, { description: 'Send an open invitation again with a new link: the old link stops working, the new one works a week from now' })
  resendInvitation(@Arg('input', () => ResendInvitationInput) input: ResendInvitationInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ResendInvitationPayload, () => members.resendInvitation(ctx, { ...input }));
  }

  @Allow(Permission.ShopMembersManage)
  @Mutation(() => RevokeInvitationPayload, { description: 'Revoke an open invitation: its link stops working' })
  revokeInvitation(@Arg('input', () => RevokeInvitationInput) input: RevokeInvitationInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, RevokeInvitationPayload, async () => {
      await members.revokeInvitation(ctx, { ...input });
      return input.invitationId;
    });
  }

  @Allow(Permission.SignedIn)
  @Mutation(() => AcceptInvitationPayload, { description: "Accept an invitation (the signed-in account's email must be the invited one)" })
  acceptInvitation(@Arg('input', () => AcceptInvitationInput) input: AcceptInvitationInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, AcceptInvitationPayload, () => members.acceptInvitation(ctx, { ...input }));
  }

  @Allow(Permission.ShopMembersManage)
  @Mutation(() => ChangeMemberRolePayload, { description: "Change a member's role (the last owner cannot be demoted)" })
  changeMemberRole(@Arg('input', () => ChangeMemberRoleInput) input: ChangeMemberRoleInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ChangeMemberRolePayload, () => members.changeMemberRole(ctx, { ...input }));
  }

  @Allow(Permission.ShopMembersManage)
  @Mutation(() => RemoveMemberPayload, { description: 'Remove a member from the acting shop (the last owner cannot be removed)' })
  removeMember(@Arg('input', () => RemoveMemberInput) input: RemoveMemberInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, RemoveMemberPayload, async () => {
      await members.removeMember(ctx, { ...input });
      return input.userId;
    });
  }
}
