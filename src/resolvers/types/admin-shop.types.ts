import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import type { ShopStatus } from '../../entities/shop.entity.js';
import { PageArgs, PageType } from './page.types.js';
import { ShopStatusEnum } from './enums.js';

@ObjectType({ description: "A shop's own balances" })
export class AdminShopBalance {
  @Field(() => Int, { description: 'Earned on orders not completed yet' }) pending!: number;
  @Field(() => Int, { description: 'Payable in the next payout batch' }) available!: number;
  @Field(() => Int, { description: 'In payouts sent to the bank and not yet answered' }) inTransit!: number;
  @Field(() => Int, { description: 'What refunds took beyond the available balance (zero or negative)' }) debt!: number;
}

@ObjectType({ description: 'A shop as the platform sees it: state, sales, balances and the commission on it' })
export class AdminShop {
  @Field(() => Int) id!: number;
  @Field() slug!: string;
  @Field() name!: string;
  @Field(() => ShopStatusEnum) status!: ShopStatus;
  @Field({ nullable: true, description: 'The reason of the last suspension' }) statusReason?: string;
  @Field({ nullable: true }) statusChangedAt?: Date;
  @Field() currency!: string;
  @Field(() => Int, { description: 'Orders ever paid (whatever happened to them after)' }) paidOrders!: number;
  @Field(() => Int, { description: 'What those orders cost their customers' }) sales!: number;
  @Field(() => Int, { description: 'What completed refunds gave back of them' }) refunded!: number;
  @Field(() => AdminShopBalance) balance!: AdminShopBalance;
  @Field(() => Int, { description: "The platform's commission on the shop's sales, net of what refunds took back" }) commission!: number;
}

@ObjectType()
export class AdminShopPage extends PageType(AdminShop) {}

@ArgsType()
export class AdminShopListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: "Part of the shop's name or slug" }) q?: string | null;
  @Field(() => ShopStatusEnum, { nullable: true }) status?: ShopStatus | null;
}
