import { ShopRole } from '../../entities/shop-membership.entity.js';
import { z } from '../../shared/validate.js';
import { id, timestamp } from '../../shared/view-fields.js';
import { sentLinkView } from '../../shared/one-time-link.js';

/** The views of a shop's staff: REST publishes these schemas and GraphQL's types are made from them. */
export const MemberView = z
  .strictObject({ userId: id, email: z.string(), displayName: z.string(), role: z.enum(ShopRole), joinedAt: timestamp })
  .describe("A member of a shop's staff");
export type MemberView = z.infer<typeof MemberView>;

export const JoinedShopView = MemberView.extend({ shopId: id }).describe('The shop an accepted invitation joined, with the role there');
export type JoinedShopView = z.infer<typeof JoinedShopView>;

export const InvitationView = z
  .strictObject({ id, shopId: id, email: z.string(), role: z.enum(ShopRole), expiresAt: timestamp, createdAt: timestamp })
  .describe('An open invitation to join a shop');
export type InvitationView = z.infer<typeof InvitationView>;

export const SentInvitationView = sentLinkView(InvitationView).describe('An invitation as its sender gets it');
export type SentInvitationView = z.infer<typeof SentInvitationView>;
