import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { GroupState } from '../../entities/group-buy.entity.js';
import { ShopSummary } from './order.types.js';
import { PageArgs, PageType } from './page.types.js';
import { PayloadType } from './payload.types.js';
import { GroupStateEnum } from './enums.js';
import { createGroupBuyRefusals, deleteGroupBuyRefusals, updateGroupBuyRefusals } from '../../services/promotions/group-buy.service.js';


@ObjectType({ description: "A shop's group-buying offer on one of its SKUs" })
export class GroupBuy {
  @Field(() => Int) id!: number;
  @Field(() => ShopSummary) shop!: ShopSummary;
  @Field(() => Int) productId!: number;
  @Field() productName!: string;
  @Field(() => Int) skuId!: number;
  @Field() skuName!: string;
  @Field(() => Int, { description: "The SKU's standard price now" }) standardPrice!: number;
  @Field(() => Int, { description: 'Price of one seat' }) groupPrice!: number;
  @Field(() => Int, { description: 'Seats per group' }) capacity!: number;
  @Field(() => Int, { description: 'How long a group stays open after it is opened' }) lifetimeMinutes!: number;
  @Field() startsAt!: Date;
  @Field() endsAt!: Date;
  @Field({ description: 'New groups can be opened now' }) active!: boolean;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType({ description: 'A concrete group under an activity' })
export class BuyingGroup {
  @Field(() => Int) id!: number;
  @Field(() => GroupStateEnum) state!: GroupState;
  @Field(() => Int) capacity!: number;
  @Field(() => Int, { description: 'Paid seats' }) seatsTaken!: number;
  @Field(() => Int) seatsLeft!: number;
  @Field(() => Int) groupPrice!: number;
  @Field() openedAt!: Date;
  @Field() expiresAt!: Date;
}

@ObjectType()
export class GroupBuyDetail extends GroupBuy {
  @Field(() => [BuyingGroup], { description: 'Open groups that can be joined, soonest expiry first (at most 100)' }) groups!: BuyingGroup[];
}

@ObjectType()
export class GroupCounts {
  @Field(() => Int) open!: number;
  @Field(() => Int) successful!: number;
  @Field(() => Int) expired!: number;
  @Field(() => Int) cancelled!: number;
}

@ObjectType()
export class MerchantGroupBuy extends GroupBuy {
  @Field(() => GroupCounts) groupCounts!: GroupCounts;
}

@ObjectType()
export class GroupBuyPage extends PageType(GroupBuy) {}

@ObjectType()
export class MerchantGroupBuyPage extends PageType(MerchantGroupBuy) {}

@InputType()
export class CreateGroupBuyInput {
  @Field(() => Int) skuId!: number;
  @Field(() => Int) groupPrice!: number;
  @Field(() => Int) capacity!: number;
  @Field(() => Int) lifetimeMinutes!: number;
  @Field() startsAt!: Date;
  @Field() endsAt!: Date;
}

@InputType({ description: "Replaces an activity's terms as a whole" })
export class UpdateGroupBuyInput extends CreateGroupBuyInput {
  @Field(() => Int) activityId!: number;
}

@InputType()
export class DeleteGroupBuyInput {
  @Field(() => Int) activityId!: number;
}

@InputType({ description: "Group-buying checkout: one unit of the activity's SKU; groupId joins that group, none opens a new one" })
export class GroupBuyIntentInput {
  @Field(() => Int) activityId!: number;
  @Field(() => Int, { nullable: true }) groupId?: number;
  @Field(() => Int, { nullable: true, description: "Must be the activity's SKU when given" }) skuId?: number;
  @Field(() => Int, { nullable: true, description: 'Must be 1 when given' }) quantity?: number;
}

@ArgsType()
export class GroupBuyListArgs extends PageArgs {
  @Field(() => Int, { nullable: true }) shopId?: number | null;
  @Field(() => Int, { nullable: true }) productId?: number | null;
}

export const CreateGroupBuyPayload = PayloadType('CreateGroupBuy', 'activity', () => MerchantGroupBuy, 'The new activity', createGroupBuyRefusals);
export const UpdateGroupBuyPayload = PayloadType('UpdateGroupBuy', 'activity', () => MerchantGroupBuy, 'The activity as changed', updateGroupBuyRefusals);
export const DeleteGroupBuyPayload = PayloadType('DeleteGroupBuy', 'deletedActivityId', () => Int, 'The id of the deleted activity', deleteGroupBuyRefusals);
