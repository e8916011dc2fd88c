import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { FlashSaleState } from '../../services/promotions/flash-sale.service.js';
import { ShopSummary } from './order.types.js';
import { PageArgs, PageType } from './page.types.js';
import { PayloadType } from './payload.types.js';
import { FlashSaleStateEnum } from './enums.js';
import { createFlashSaleRefusals, deleteFlashSaleRefusals, disableFlashSaleRefusals, enableFlashSaleRefusals, updateFlashSaleRefusals } from '../../services/promotions/flash-sale.service.js';


@ObjectType()
export class FlashSaleItem {
  @Field(() => Int) id!: number;
  @Field(() => Int) skuId!: number;
  @Field() skuName!: string;
  @Field(() => Int) productId!: number;
  @Field() productName!: string;
  @Field(() => Int, { description: "The SKU's current price" }) standardPrice!: number;
  @Field(() => Int) activityPrice!: number;
  @Field(() => Int, { description: 'Activity stock set by the shop' }) reservedStock!: number;
  @Field(() => Int, { description: 'Activity stock left' }) remainingStock!: number;
  @Field(() => Int, { description: 'Activity-priced units one customer may buy' }) perCustomerLimit!: number;
}

@ObjectType()
export class FlashSale {
  @Field(() => Int) id!: number;
  @Field(() => ShopSummary) shop!: ShopSummary;
  @Field() name!: string;
  @Field() startsAt!: Date;
  @Field({ description: 'Exclusive end of the window' }) endsAt!: Date;
  @Field() enabled!: boolean;
  @Field(() => FlashSaleStateEnum) state!: FlashSaleState;
  @Field(() => [FlashSaleItem]) items!: FlashSaleItem[];
}

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
