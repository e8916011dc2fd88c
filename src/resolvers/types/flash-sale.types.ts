import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { FlashSaleItemView, FlashSaleView } from '../../services/promotions/flash-sale.service.js';
// The shop's summary type is made from the same schema by order.types.ts, which must load first.
import './order.types.js';
import { objectType } from './object-type.js';
import { PageArgs, PageType } from './page.types.js';
import { PayloadType } from './payload.types.js';
import { createFlashSaleRefusals, deleteFlashSaleRefusals, disableFlashSaleRefusals, enableFlashSaleRefusals, updateFlashSaleRefusals } from '../../services/promotions/flash-sale.service.js';


// Made from the flash-sale service's view schemas (object-type.ts).
export const FlashSaleItem = objectType('FlashSaleItem', FlashSaleItemView);
export type FlashSaleItem = FlashSaleItemView;
export const FlashSale = objectType('FlashSale', FlashSaleView);
export type FlashSale = FlashSaleView;

@ObjectType('FlashSalePage')
export class FlashSalePage extends PageType(FlashSale) {}

@InputType()
export class FlashSaleItemInput {
  @Field(() => Int) skuId!: number;
  @Field(() => Int, { description: 'Below the SKU price' }) activityPrice!: number;
  @Field(() => Int) reservedStock!: number;
  @Field(() => Int) perCustomerLimit!: number;
}

@InputType()
export class CreateFlashSaleInput {
  @Field() name!: string;
  @Field() startsAt!: Date;
  @Field({ description: 'Exclusive end of the window' }) endsAt!: Date;
  @Field(() => [FlashSaleItemInput]) items!: FlashSaleItemInput[];
}

@InputType({ description: 'Replaces name, window and items; items are matched by SKU' })
export class UpdateFlashSaleInput extends CreateFlashSaleInput {
  @Field(() => Int) flashSaleId!: number;
}

@InputType()
export class DeleteFlashSaleInput {
  @Field(() => Int) flashSaleId!: number;
}

@InputType()
export class EnableFlashSaleInput {
  @Field(() => Int) flashSaleId!: number;
}

@InputType()
export class DisableFlashSaleInput {
  @Field(() => Int) flashSaleId!: number;
}

@ArgsType()
export class FlashSaleListArgs extends PageArgs {
  @Field(() => Boolean, { nullable: true }) includeUpcoming?: boolean | null;
  @Field(() => Int, { nullable: true }) shopId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Only sessions with an item of this product' }) productId?: number | null;
}

export const CreateFlashSalePayload = PayloadType('CreateFlashSale', 'flashSale', () => FlashSale, 'The new session (disabled)', createFlashSaleRefusals);
export const UpdateFlashSalePayload = PayloadType('UpdateFlashSale', 'flashSale', () => FlashSale, 'The session as changed', updateFlashSaleRefusals);
export const DeleteFlashSalePayload = PayloadType('DeleteFlashSale', 'deletedFlashSaleId', () => Int, 'The id of the deleted session', deleteFlashSaleRefusals);
export const EnableFlashSalePayload = PayloadType('EnableFlashSale', 'flashSale', () => FlashSale, 'The session, enabled', enableFlashSaleRefusals);
export const DisableFlashSalePayload = PayloadType('DisableFlashSale', 'flashSale', () => FlashSale, 'The session, disabled', disableFlashSaleRefusals);
