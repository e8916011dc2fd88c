import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import * as auth from '../services/accounts/auth.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { answer } from './answer.js';
import { LoginInput, LoginPayload, LogoutPayload, RegisterInput, RegisterPayload, UserType } from './types/user.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class AuthResolver {
  @Allow(Permission.Public)
  @Mutation(() => RegisterPayload, { description: 'Create a customer account and sign in' })
  register(@Arg('input', () => RegisterInput) input: RegisterInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, RegisterPayload, () => auth.register(ctx, input));
  }

  @Allow(Permission.Public)
  @Mutation(() => LoginPayload, { description: 'Sign in; wrong credentials are a user error (INVALID_CREDENTIALS), the same for an unknown email' })
  login(@Arg('input', () => LoginInput) input: LoginInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, LoginPayload, () => auth.login(ctx, input));
  }

  @Allow(Permission.SignedIn)
  @Mutation(() => LogoutPayload, { description: 'Revoke the token this request was made with (the one mutation without arguments)' })
  logout(@Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, LogoutPayload, () => auth.logout(ctx));
  }

  @Allow(Permission.SignedIn)
  @Query(() => UserType, { description: 'The signed-in account' })
  me(@Ctx() { ctx }: GraphQLContext) {
    return auth.me(ctx);
  }
}
