/**
 * What both consoles' invitation forms check as they are typed, by the rules the services parse
 * with: the address the invitation goes to. The role is one of a list the form offers, and the
 * services add it to the schema with their own enum (shop-members.service.ts, platform-staff.service.ts).
 */
import { emailAddress, z } from '../../shared/input-rules.js';

export const InvitationFields = z.strictObject({ email: emailAddress });
