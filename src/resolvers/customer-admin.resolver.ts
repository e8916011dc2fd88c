import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as customers from '../services/accounts/customer-admin.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import {
  Customer, CustomerListArgs, CustomerPage, DisableCustomerInput, DisableCustomerPayload, EnableCustomerInput, EnableCustomerPayload,
} from './types/customer-admin.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class CustomerAdminResolver {
  @Allow(Permission.PlatformCustomersRead)
  @Query(() => CustomerPage, { description: 'Platform admin: customers, newest first, by part of the email or name or by id, and by state' })
  customers(@Args(() => CustomerListArgs) args: CustomerListArgs, @Ctx() { ctx }: GraphQLContext) {
    return customers.listCustomers(ctx, withoutNulls(args));
  }

  @Allow(Permission.PlatformCustomersRead)
  @Query(() => Customer, { nullable: true, description: 'Platform admin: one customer, with their order count' })
  customer(@Arg('id', () => Int) customerId: number, @Ctx() { ctx }: GraphQLContext) {
    return customers.getCustomer(ctx, { customerId });
  }

  @Allow(Permission.PlatformCustomersManage)
  @Mutation(() => DisableCustomerPayload, { description: 'Platform admin: disable an account (no sign-in, tokens revoked, websockets closed)' })
  disableCustomer(@Arg('input', () => DisableCustomerInput) input: DisableCustomerInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, DisableCustomerPayload, () => customers.disableCustomer(ctx, { ...input }));
  }

  @Allow(Permission.PlatformCustomersManage)
  @Mutation(() => EnableCustomerPayload, { description: 'Platform admin: enable a disabled account again' })
  enableCustomer(@Arg('input', () => EnableCustomerInput) input: EnableCustomerInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, EnableCustomerPayload, () => customers.enableCustomer(ctx, { ...input }));
  }
}
