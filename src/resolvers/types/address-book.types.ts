import { Field, InputType, Int } from 'type-graphql';
import { PayloadType } from './payload.types.js';
import { objectType } from './object-type.js';
import { RegionView } from '../../services/shipping/regions.js';
import { SavedAddressView } from '../../services/shipping/address-book.service.js';
import { RegionCodeEnum } from './enums.js';
import type { RegionCode } from '../../services/shipping/regions.js';
import { addAddressRefusals, deleteAddressRefusals, setDefaultAddressRefusals, updateAddressRefusals } from '../../services/shipping/address-book.service.js';

// Made from the shipping service's view schemas (object-type.ts).
export const RegionType = objectType('Region', RegionView);
export type RegionType = RegionView;
export const SavedAddressType = objectType('SavedAddress', SavedAddressView);
export type SavedAddressType = SavedAddressView;

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
