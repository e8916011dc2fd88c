import { Field, InputType, Int, ObjectType } from 'type-graphql';
import type { ShopRole } from '../../entities/shop-membership.entity.js';
import {
  acceptInvitationRefusals, changeMemberRoleRefusals, inviteMemberRefusals, removeMemberRefusals, revokeInvitationRefusals,
} from '../../services/shops/shop-members.service.js';
import { PayloadType } from './payload.types.js';
import { ShopRoleEnum } from './enums.js';

@ObjectType({ description: "A member of a shop's staff" })
export class ShopMember {
  @Field(() => Int) userId!: number;
  @Field() email!: string;
  @Field() displayName!: string;
  @Field(() => ShopRoleEnum) role!: ShopRole;
  @Field() joinedAt!: Date;
}

@ObjectType({ description: 'The shop an accepted invitation joined, with the role there' })
export class JoinedShop extends ShopMember {
  @Field(() => Int) shopId!: number;
}

@ObjectType({ description: 'An open invitation to join a shop' })
export class MemberInvitation {
  @Field(() => Int) id!: number;
  @Field(() => Int) shopId!: number;
  @Field() email!: string;
  @Field(() => ShopRoleEnum) role!: ShopRole;
  @Field() expiresAt!: Date;
  @Field() createdAt!: Date;
}

@ObjectType({ description: 'An invitation as its sender gets it' })
export class SentInvitation {
  @Field(() => MemberInvitation) invitation!: MemberInvitation;
  @Field({ description: 'The one-time token of the link the invitee opens; shown this once, only its hash is kept' }) token!: string;
  @Field({ description: 'Whether the invitation email went to the mail server (SMTP_URL); false: pass the link on yourself' }) emailSent!: boolean;
}

@InputType()
export class InviteMemberInput {
  @Field() email!: string;
  @Field(() => ShopRoleEnum) role!: ShopRole;
}

@InputType()
export class AcceptInvitationInput {
  @Field() token!: string;
}

@InputType()
export class RevokeInvitationInput {
  @Field(() => Int) invitationId!: number;
}

@InputType()
export class ChangeMemberRoleInput {
  @Field(() => Int) userId!: number;
  @Field(() => ShopRoleEnum) role!: ShopRole;
}

@InputType()
export class RemoveMemberInput {
  @Field(() => Int) userId!: number;
}

export const InviteMemberPayload = PayloadType('InviteMember', 'sent', () => SentInvitation, 'The invitation and its one-time token', inviteMemberRefusals);
export const AcceptInvitationPayload = PayloadType('AcceptInvitation', 'joined', () => JoinedShop, 'The shop joined', acceptInvitationRefusals);
export const RevokeInvitationPayload = PayloadType('RevokeInvitation', 'invitationId', () => Int, 'The revoked invitation', revokeInvitationRefusals);
export const ChangeMemberRolePayload = PayloadType('ChangeMemberRole', 'member', () => ShopMember, 'The member with the new role', changeMemberRoleRefusals);
export const RemoveMemberPayload = PayloadType('RemoveMember', 'userId', () => Int, 'The removed member', removeMemberRefusals);
