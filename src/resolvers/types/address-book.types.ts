import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { PayloadType } from './payload.types.js';
import { RegionCodeEnum } from './enums.js';
import type { RegionCode } from '../../services/shipping/regions.js';
import { addAddressRefusals, deleteAddressRefusals, setDefaultAddressRefusals, updateAddressRefusals } from '../../services/shipping/address-book.service.js';

@ObjectType('Region', { description: 'A region the mall ships to, by its ISO 3166-2:CN code' })
export class RegionType {
  @Field(() => RegionCodeEnum) code!: RegionCode;
  @Field() name!: string;
  @Field({ description: 'The name in Chinese' }) localName!: string;
}

@ObjectType('SavedAddress', { description: "An address of the customer's address book" })
export class SavedAddressType {
  @Field(() => Int) id!: number;
  @Field() recipient!: string;
  @Field() phone!: string;
  @Field(() => RegionCodeEnum) region!: RegionCode;
  @Field() address!: string;
  @Field() isDefault!: boolean;
  @Field() createdAt!: Date;
}

@InputType()
export class AddAddressInput {
  @Field() recipient!: string;
  @Field() phone!: string;
  @Field(() => RegionCodeEnum) region!: RegionCode;
  @Field() address!: string;
  @Field(() => Boolean, { nullable: true, description: 'Make it the default (the first address always is)' }) isDefault?: boolean | null;
}

@InputType()
export class UpdateAddressInput {
  @Field(() => Int) addressId!: number;
  @Field(() => String, { nullable: true }) recipient?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
  @Field(() => RegionCodeEnum, { nullable: true }) region?: RegionCode | null;
  @Field(() => String, { nullable: true }) address?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'true makes it the default' }) isDefault?: boolean | null;
}

@InputType()
export class SetDefaultAddressInput {
  @Field(() => Int) addressId!: number;
}

@InputType()
export class DeleteAddressInput {
  @Field(() => Int) addressId!: number;
}

export const AddAddressPayload = PayloadType('AddAddress', 'address', () => SavedAddressType, 'The saved address', addAddressRefusals);
export const UpdateAddressPayload = PayloadType('UpdateAddress', 'address', () => SavedAddressType, 'The changed address', updateAddressRefusals);
export const SetDefaultAddressPayload = PayloadType('SetDefaultAddress', 'address', () => SavedAddressType, 'The new default address', setDefaultAddressRefusals);
export const DeleteAddressPayload = PayloadType('DeleteAddress', 'addressId', () => Int, 'The id of the deleted address', deleteAddressRefusals);
