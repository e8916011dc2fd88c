import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import * as book from '../services/shipping/address-book.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import {
  AddAddressInput, AddAddressPayload, DeleteAddressInput, DeleteAddressPayload, SetDefaultAddressInput, RegionType, SavedAddressType, SetDefaultAddressPayload, UpdateAddressInput,
  UpdateAddressPayload,
} from './types/address-book.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class AddressBookResolver {
  @Allow(Permission.Public)
  @Query(() => [RegionType], { description: 'The regions the mall ships to: 31 mainland provinces, Hong Kong, Macau, Taiwan, by name' })
  regions() {
    return book.listRegions();
  }

  @Allow(Permission.Customer)
  @Query(() => [SavedAddressType], { description: "The caller's saved addresses, the default first (customer)" })
  myAddresses(@Ctx() { ctx }: GraphQLContext) {
    return book.listMyAddresses(ctx);
  }

  @Allow(Permission.Customer)
  @Mutation(() => AddAddressPayload, { description: 'Save an address; the first one becomes the default' })
  addAddress(@Arg('input', () => AddAddressInput) input: AddAddressInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, AddAddressPayload, () => book.addAddress(ctx, withoutNulls({ ...input })));
  }

  @Allow(Permission.Customer)
  @Mutation(() => UpdateAddressPayload, { description: 'Change the fields given of a saved address' })
  updateAddress(@Arg('input', () => UpdateAddressInput) input: UpdateAddressInput, @Ctx() { ctx }: GraphQLContext) {
    const { addressId, ...fields } = input;
    return answer(ctx, UpdateAddressPayload, () => book.updateAddress(ctx, addressId, withoutNulls({ ...fields })));
  }

  @Allow(Permission.Customer)
  @Mutation(() => SetDefaultAddressPayload, { description: 'Make a saved address the default' })
  setDefaultAddress(@Arg('input', () => SetDefaultAddressInput) input: SetDefaultAddressInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, SetDefaultAddressPayload, () => book.setDefaultAddress(ctx, input.addressId));
  }

  @Allow(Permission.Customer)
  @Mutation(() => DeleteAddressPayload, { description: 'Delete a saved address; the newest one left becomes the default' })
  deleteAddress(@Arg('input', () => DeleteAddressInput) input: DeleteAddressInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, DeleteAddressPayload, async () => {
      await book.deleteAddress(ctx, input.addressId);
      return input.addressId;
    });
  }
}
