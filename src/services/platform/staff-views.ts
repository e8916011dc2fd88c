import { PlatformRole } from '../../entities/user.entity.js';
import { z } from '../../shared/validate.js';
import { id, timestamp } from '../../shared/view-fields.js';
import { sentLinkView } from '../../shared/one-time-link.js';

/** The views of the platform's staff: REST publishes these schemas and GraphQL's types are made from them. */
export const StaffMemberView = z
  .strictObject({
    userId: id,
    email: z.string(),
    displayName: z.string(),
    role: z.enum(PlatformRole),
    // Staff made before invitations existed count from when their account was made.
    since: timestamp.describe('When the account joined the staff'),
    disabled: z.boolean().describe('Whether the account is disabled (it cannot sign in)'),
  })
  .describe("A member of the platform's staff");
export type StaffMemberView = z.infer<typeof StaffMemberView>;

export const StaffInvitationView = z
  .strictObject({ id, email: z.string(), role: z.enum(PlatformRole), expiresAt: timestamp, createdAt: timestamp })
  .describe("An open invitation to join the platform's staff");
export type StaffInvitationView = z.infer<typeof StaffInvitationView>;

export const SentStaffInvitationView = sentLinkView(StaffInvitationView).describe('A staff invitation as the inviting admin gets it');
export type SentStaffInvitationView = z.infer<typeof SentStaffInvitationView>;
