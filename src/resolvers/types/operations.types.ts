import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import { PageArgs } from './page.types.js';

@ObjectType('OperationsToday', { description: "Today's counters of one shop (shop operator) or of every shop (platform admin)" })
export class OperationsTodayType {
  @Field(() => Int, { nullable: true, description: 'The shop counted; null: every shop' }) shopId!: number | null;
  @Field({ description: 'The IANA time zone whose calendar day is today' }) timeZone!: string;
  @Field({ description: 'Start of today in that time zone' }) since!: Date;
  @Field() currency!: string;
  @Field(() => Int, { description: 'Orders created today, whatever their state now' }) ordersPlaced!: number;
  @Field(() => Int, { description: 'Orders paid today' }) ordersPaid!: number;
  @Field(() => Int, { description: 'Sum of the totals of the orders paid today (minor units)' }) paidAmount!: number;
  @Field(() => Int, { description: 'Orders cancelled today' }) ordersCancelled!: number;
  @Field(() => Int, { description: 'Paid orders not yet fully shipped, now' }) awaitingShipment!: number;
  @Field(() => Int, { description: 'Refunds and returns asked for today' }) refundsRequested!: number;
  @Field(() => Int, { description: 'Refunds and returns waiting for the shop to decide, now' }) refundsOpen!: number;
}

@ArgsType()
export class AwaitingShipmentListArgs extends PageArgs {
  @Field(() => Int, { nullable: true }) shopId?: number | null;
}
