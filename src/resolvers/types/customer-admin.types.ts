import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import type { CustomerState } from '../../services/accounts/customer-admin.service.js';
import { CustomerView, disableCustomerRefusals, enableCustomerRefusals } from '../../services/accounts/customer-admin.service.js';
import { objectType } from './object-type.js';
import { PageArgs, PageType } from './page.types.js';
import { PayloadType } from './payload.types.js';
import type { NameSort } from '../../shared/pagination.js';
import { CustomerStateEnum, NameSortEnum } from './enums.js';

// Made from the customer service's view schema (object-type.ts).
export const Customer = objectType('Customer', CustomerView);
export type Customer = CustomerView;

@ObjectType()
export class CustomerPage extends PageType(Customer) {}

@ArgsType()
export class CustomerListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Part of the email or the display name, or an account id' }) q?: string | null;
  @Field(() => CustomerStateEnum, { nullable: true }) state?: CustomerState | null;
  @Field(() => NameSortEnum, { nullable: true, description: 'Default: newest first' }) sort?: NameSort | null;
}

@InputType()
export class DisableCustomerInput {
  @Field(() => Int) customerId!: number;
  @Field({ description: 'Why (1 to 500 characters), kept with the account' }) reason!: string;
}

@InputType()
export class EnableCustomerInput {
  @Field(() => Int) customerId!: number;
}

export const DisableCustomerPayload = PayloadType('DisableCustomer', 'customer', () => Customer, 'The account, disabled', disableCustomerRefusals);
export const EnableCustomerPayload = PayloadType('EnableCustomer', 'customer', () => Customer, 'The account, enabled again', enableCustomerRefusals);
