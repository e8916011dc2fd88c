import { Field, InputType, Int, ObjectType } from 'type-graphql';
import type { PlatformRole } from '../../entities/user.entity.js';
import {
  acceptStaffInvitationRefusals, changeStaffRoleRefusals, inviteStaffRefusals, removeStaffRefusals, resendStaffInvitationRefusals, revokeStaffInvitationRefusals,
} from '../../services/platform/platform-staff.service.js';
import { PayloadType } from './payload.types.js';
import { objectType } from './object-type.js';
import { StaffInvitationView, StaffMemberView } from '../../services/platform/staff-views.js';
import { PlatformRoleEnum } from './enums.js';

// Made from the platform service's view schemas (object-type.ts).
export const StaffMember = objectType('StaffMember', StaffMemberView);
export type StaffMember = StaffMemberView;
export const StaffInvitation = objectType('StaffInvitation', StaffInvitationView);
export type StaffInvitation = StaffInvitationView;

// Written here rather than made from its view schema (sentLinkView, shared/one-time-link.ts): made from it, the
// invitation field would take the invitation type's description. Held to it by test/one-description.test.ts.
@ObjectType({ description: 'A staff invitation as the inviting admin gets it' })
export class SentStaffInvitation {
  @Field(() => StaffInvitation) invitation!: StaffInvitation;
  @Field({ description: 'The one-time token of the link the invitee opens; shown this once, only its hash is kept' }) token!: string;
  @Field({ description: 'Whether the mail server (SMTP_URL) took the invitation email at once; false: it is tried again for about a day (not without SMTP_URL), and you may pass the link on yourself' }) emailSent!: boolean;
}

@InputType()
export class InviteStaffInput {
  @Field() email!: string;
  @Field(() => PlatformRoleEnum) role!: PlatformRole;
}

@InputType()
export class AcceptStaffInvitationInput {
  @Field() token!: string;
}

@InputType()
export class RevokeStaffInvitationInput {
  @Field(() => Int) invitationId!: number;
}

@InputType()
export class ResendStaffInvitationInput {
  @Field(() => Int) invitationId!: number;
}

@InputType()
export class ChangeStaffRoleInput {
  @Field(() => Int) userId!: number;
  @Field(() => PlatformRoleEnum) role!: PlatformRole;
}

@InputType()
export class RemoveStaffInput {
  @Field(() => Int) userId!: number;
}

export const InviteStaffPayload = PayloadType('InviteStaff', 'sent', () => SentStaffInvitation, 'The invitation and its one-time token', inviteStaffRefusals);
export const AcceptStaffInvitationPayload = PayloadType('AcceptStaffInvitation', 'member', () => StaffMember, 'The account as a staff member', acceptStaffInvitationRefusals);
export const ResendStaffInvitationPayload = PayloadType('ResendStaffInvitation', 'sent', () => SentStaffInvitation, 'The invitation and its new one-time token', resendStaffInvitationRefusals);
export const RevokeStaffInvitationPayload = PayloadType('RevokeStaffInvitation', 'invitationId', () => Int, 'The revoked invitation', revokeStaffInvitationRefusals);
export const ChangeStaffRolePayload = PayloadType('ChangeStaffRole', 'member', () => StaffMember, 'The member with the new role', changeStaffRoleRefusals);
export const RemoveStaffPayload = PayloadType('RemoveStaff', 'userId', () => Int, 'The removed member', removeStaffRefusals);
