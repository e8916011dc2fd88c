import { Field, InputType } from 'type-graphql';
import { PayloadType } from './payload.types.js';
import { loginRefusals, registerRefusals } from '../../services/accounts/auth.service.js';
import { MembershipView, SessionView, UserView } from '../../services/accounts/user-view.js';
import { objectType } from './object-type.js';


// Made from the account's view schemas (object-type.ts).
export const MembershipType = objectType('Membership', MembershipView);
export const UserType = objectType('User', UserView);
export type UserType = UserView;
export const SessionType = objectType('Session', SessionView);

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
