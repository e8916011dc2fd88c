import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { PlatformRole, Role } from '../../entities/user.entity.js';
import { ShopRole } from '../../entities/shop-membership.entity.js';
import { PermissionEnum, PlatformRoleEnum, RoleEnum, ShopRoleEnum } from './enums.js';
import type { Permission } from '../../shared/permissions.js';
import { PayloadType } from './payload.types.js';
import { loginRefusals, registerRefusals } from '../../services/accounts/auth.service.js';


@ObjectType('Membership', { description: "A user's place in a shop's staff" })
export class MembershipType {
  @Field(() => Int) shopId!: number;
  @Field(() => ShopRoleEnum) role!: ShopRole;
  @Field({ description: "The shop's name" }) shopName!: string;
}

@ObjectType('User')
export class UserType {
  @Field(() => Int) id!: number;
  @Field() email!: string;
  @Field() displayName!: string;
  @Field(() => RoleEnum) role!: Role;
  @Field(() => Int, { nullable: true, description: 'The shop this request acts for (the `X-Shop-Id` header, or the only membership)' }) shopId!: number | null;
  @Field(() => PlatformRoleEnum, { nullable: true, description: "Platform staff's role" }) platformRole!: PlatformRole | null;
  @Field(() => [MembershipType], { description: 'Every shop the user belongs to, with the role there' }) memberships!: MembershipType[];
  @Field(() => [PermissionEnum], {
    description: "What this request may do, as the permissions of its acting shop's role and of the platform role (docs/api.md, \"Staff and the shop a request acts for\"); `public` and `signed_in` are not listed",
  })
  permissions!: Permission[];
  @Field() createdAt!: Date;
}

@ObjectType('Session')
export class SessionType {
  @Field({ description: 'Opaque bearer token: send it as `Authorization: Bearer <token>`' }) token!: string;
  @Field() expiresAt!: Date;
  @Field({
    description:
      'Marks this client as a device that signed in to this account: send it as `deviceToken` with the next `login` of the same email, so that no one else\'s failed attempts can hold that login back',
  })
  deviceToken!: string;
  @Field(() => UserType) user!: UserType;
}

@InputType()
export class RegisterInput {
  @Field() email!: string;
  @Field() password!: string;
  @Field() displayName!: string;
}

@InputType()
export class LoginInput {
  @Field() email!: string;
  @Field() password!: string;
  @Field(() => String, { nullable: true, description: 'The `deviceToken` of an earlier sign-in of this email on this client' })
  deviceToken?: string | null;
}

export const RegisterPayload = PayloadType('Register', 'session', () => SessionType, 'The new account, signed in', registerRefusals);
export const LoginPayload = PayloadType('Login', 'session', () => SessionType, 'The signed-in session', loginRefusals);
export const LogoutPayload = PayloadType('Logout', 'loggedOut', () => Boolean, 'True: the token this request carried is revoked');
