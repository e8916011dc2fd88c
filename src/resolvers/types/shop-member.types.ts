import { Field, InputType, Int, ObjectType } from 'type-graphql';
import type { ShopRole } from '../../entities/shop-membership.entity.js';
import {
  acceptInvitationRefusals, changeMemberRoleRefusals, inviteMemberRefusals, removeMemberRefusals, resendInvitationRefusals, revokeInvitationRefusals,
} from '../../services/shops/shop-members.service.js';
import { PayloadType } from './payload.types.js';
import { objectType } from './object-type.js';
import { InvitationView, JoinedShopView, MemberView } from '../../services/shops/member-views.js';
import { ShopRoleEnum } from './enums.js';

// Made from the shops service's view schemas (object-type.ts).
export const ShopMember = objectType('ShopMember', MemberView);
export type ShopMember = MemberView;
export const JoinedShop = objectType('JoinedShop', JoinedShopView);
export type JoinedShop = JoinedShopView;
export const MemberInvitation = objectType('MemberInvitation', InvitationView);
export type MemberInvitation = InvitationView;

// Written here rather than made from its view schema (sentLinkView, shared/one-time-link.ts): made from it, the
// invitation field would take the invitation type's description. Held to it by test/one-description.test.ts.
@ObjectType({ description: 'An invitation as its sender gets it' })
export class SentInvitation {
  @Field(() => MemberInvitation) invitation!: MemberInvitation;
  @Field({ description: 'The one-time token of the link the invitee opens; shown this once, only its hash is kept' }) token!: string;
  @Field({ description: 'Whether the mail server (SMTP_URL) took the invitation email at once; false: it is tried again for about a day (not without SMTP_URL), and you may pass the link on yourself' }) emailSent!: boolean;
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
export class ResendInvitationInput {
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
export const ResendInvitationPayload = PayloadType('ResendInvitation', 'sent', () => SentInvitation, 'The invitation and its new one-time token', resendInvitationRefusals);
export const RevokeInvitationPayload = PayloadType('RevokeInvitation', 'invitationId', () => Int, 'The revoked invitation', revokeInvitationRefusals);
export const ChangeMemberRolePayload = PayloadType('ChangeMemberRole', 'member', () => ShopMember, 'The member with the new role', changeMemberRoleRefusals);
export const RemoveMemberPayload = PayloadType('RemoveMember', 'userId', () => Int, 'The removed member', removeMemberRefusals);
