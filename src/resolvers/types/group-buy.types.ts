import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { GroupBuyDetailView, GroupBuyView, GroupCountsView, GroupView, MerchantGroupBuyView } from '../../services/promotions/group-buy.service.js';
// The shop's summary type is made from the same schema by order.types.ts, which must load first.
import './order.types.js';
import { objectType } from './object-type.js';
import { PageArgs, PageType } from './page.types.js';
import { PayloadType } from './payload.types.js';
import { createGroupBuyRefusals, deleteGroupBuyRefusals, updateGroupBuyRefusals } from '../../services/promotions/group-buy.service.js';


// Made from the group-buy service's view schemas (object-type.ts).
export const GroupBuy = objectType('GroupBuy', GroupBuyView);
export type GroupBuy = GroupBuyView;
export const BuyingGroup = objectType('BuyingGroup', GroupView);
export type BuyingGroup = GroupView;
export const GroupBuyDetail = objectType('GroupBuyDetail', GroupBuyDetailView);
export type GroupBuyDetail = GroupBuyDetailView;
export const GroupCounts = objectType('GroupCounts', GroupCountsView);
export type GroupCounts = GroupCountsView;
export const MerchantGroupBuy = objectType('MerchantGroupBuy', MerchantGroupBuyView);
export type MerchantGroupBuy = MerchantGroupBuyView;

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
