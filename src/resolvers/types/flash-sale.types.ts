import { ArgsType, Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { FlashSaleState } from '../../services/promotions/flash-sale.service.js';
import { ShopSummary } from './order.types.js';
import { PageArgs, PageType } from './page.types.js';

registerEnumType(FlashSaleState, { name: 'FlashSaleState', description: 'Where now falls in the window [startsAt, endsAt)' });

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
  @Field(() => FlashSaleState) state!: FlashSaleState;
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
export class FlashSaleInput {
  @Field() name!: string;
  @Field() startsAt!: Date;
  @Field({ description: 'Exclusive end of the window' }) endsAt!: Date;
  @Field(() => [FlashSaleItemInput]) items!: FlashSaleItemInput[];
}

@ArgsType()
export class FlashSaleListArgs extends PageArgs {
  @Field(() => Boolean, { nullable: true }) includeUpcoming?: boolean | null;
  @Field(() => Int, { nullable: true }) shopId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Only sessions with an item of this product' }) productId?: number | null;
}
