import { PlatformRole, Role } from '../../entities/user.entity.js';
import { ShopRole } from '../../entities/shop-membership.entity.js';
import { Permission } from '../../shared/permissions.js';
import { z } from '../../shared/validate.js';
import { id, timestamp } from '../../shared/view-fields.js';

/** A membership with its shop's name (the console's shop switcher). */
export const MembershipView = z
  .strictObject({ shopId: id, role: z.enum(ShopRole), shopName: z.string().describe("The shop's name") })
  .describe("A user's place in a shop's staff");
export type MembershipView = z.infer<typeof MembershipView>;

/** An account as a request sees it: REST publishes this schema and GraphQL's type is made from it. */
export const UserView = z.strictObject({
  id,
  email: z.string(),
  displayName: z.string(),
  role: z.enum(Role),
  // Null without a membership and none named.
  shopId: id.nullable().describe('The shop this request acts for (the `X-Shop-Id` header, or the only membership)'),
  // Null for every account that is not platform staff.
  platformRole: z.enum(PlatformRole).nullable().describe("Platform staff's role"),
  memberships: z.array(MembershipView).describe('Every shop the user belongs to, with the role there'),
  permissions: z
    .array(z.enum(Permission))
    .describe(
      "What this request may do, as the permissions of its acting shop's role and of the platform role (docs/api.md, \"Staff and the shop a request acts for\"); `public` and `signed_in` are not listed",
    ),
  createdAt: timestamp,
});
export type UserView = z.infer<typeof UserView>;

/** A sign-in's answer. */
export const SessionView = z.strictObject({
  token: z.string().describe('Opaque bearer token: send it as `Authorization: Bearer <token>`'),
  expiresAt: timestamp,
  // Sent back with the next login of the same email, it keeps that login clear of the limits strangers can set off.
  deviceToken: z
    .string()
    .describe(
      "Marks this client as a device that signed in to this account: send it back with the next sign-in of the same email (`device_token` in REST, `deviceToken` in GraphQL), so that no one else's failed attempts can hold that sign-in back",
    ),
  user: UserView,
});
export type SessionView = z.infer<typeof SessionView>;
