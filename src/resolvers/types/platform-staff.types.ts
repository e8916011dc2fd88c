import { Field, InputType, Int, ObjectType } from 'type-graphql';
import type { PlatformRole } from '../../entities/user.entity.js';
import {
  acceptStaffInvitationRefusals, changeStaffRoleRefusals, inviteStaffRefusals, removeStaffRefusals, revokeStaffInvitationRefusals,
} from '../../services/platform/platform-staff.service.js';
import { PayloadType } from './payload.types.js';
import { PlatformRoleEnum } from './enums.js';

@ObjectType({ description: "A member of the platform's staff" })
export class StaffMember {
  @Field(() => Int) userId!: number;
  @Field() email!: string;
  @Field() displayName!: string;
  @Field(() => PlatformRoleEnum) role!: PlatformRole;
  @Field({ description: 'When the account joined the staff' }) since!: Date;
  @Field({ description: 'Whether the account is disabled (it cannot sign in)' }) disabled!: boolean;
}

@ObjectType({ description: "An open invitation to join the platform's staff" })
export class StaffInvitation {
  @Field(() => Int) id!: number;
  @Field() email!: string;
  @Field(() => PlatformRoleEnum) role!: PlatformRole;
  @Field() expiresAt!: Date;
  @Field() createdAt!: Date;
}

@ObjectType({ description: 'A staff invitation as the inviting admin gets it' })
export class SentStaffInvitation {
  @Field(() => StaffInvitation) invitation!: StaffInvitation;
  @Field({ description: 'The one-time token of the link the invitee opens; shown this once, only its hash is kept' }) token!: string;
  @Field({ description: 'Whether the invitation email went to the mail server (SMTP_URL); false: pass the link on yourself' }) emailSent!: boolean;
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
export const RevokeStaffInvitationPayload = PayloadType('RevokeStaffInvitation', 'invitationId', () => Int, 'The revoked invitation', revokeStaffInvitationRefusals);
export const ChangeStaffRolePayload = PayloadType('ChangeStaffRole', 'member', () => StaffMember, 'The member with the new role', changeStaffRoleRefusals);
export const RemoveStaffPayload = PayloadType('RemoveStaff', 'userId', () => Int, 'The removed member', removeStaffRefusals);
