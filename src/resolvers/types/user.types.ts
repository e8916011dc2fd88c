import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Role } from '../../entities/user.entity.js';
import { RoleEnum } from './enums.js';
import { PayloadType } from './payload.types.js';
import { loginRefusals, registerRefusals } from '../../services/accounts/auth.service.js';


@ObjectType('User')
export class UserType {
  @Field(() => Int) id!: number;
  @Field() email!: string;
  @Field() displayName!: string;
  @Field(() => RoleEnum) role!: Role;
  @Field(() => Int, { nullable: true, description: 'The shop a shop operator acts for' }) shopId!: number | null;
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
