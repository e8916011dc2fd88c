import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import * as auth from '../services/accounts/auth.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { LoginInput, RegisterInput, SessionType, UserType } from './types/user.types.js';

@Resolver()
export class AuthResolver {
  @Mutation(() => SessionType, { description: 'Create a customer account and sign in' })
  register(@Arg('input', () => RegisterInput) input: RegisterInput, @Ctx() { ctx }: GraphQLContext) {
    return auth.register(ctx, input);
  }

  @Mutation(() => SessionType)
  login(@Arg('input', () => LoginInput) input: LoginInput, @Ctx() { ctx }: GraphQLContext) {
    return auth.login(ctx, input);
  }

  @Mutation(() => Boolean, { description: 'Revoke the token this request was made with' })
  logout(@Ctx() { ctx }: GraphQLContext) {
    return auth.logout(ctx);
  }

  @Query(() => UserType, { description: 'The signed-in account' })
  me(@Ctx() { ctx }: GraphQLContext) {
    return auth.me(ctx);
  }
}
