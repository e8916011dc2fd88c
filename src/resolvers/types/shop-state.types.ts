import { Field, InputType, Int, ObjectType } from 'type-graphql';
import type { ShopStatus } from '../../entities/shop.entity.js';
import { closeShopRefusals, reinstateShopRefusals, suspendShopRefusals } from '../../services/shops/shop-state.service.js';
import { PayloadType } from './payload.types.js';
import { ShopStatusEnum } from './enums.js';

@ObjectType({ description: "A shop's state: active, suspended (its products off the storefront, payouts held) or closed" })
export class ShopState {
  @Field(() => Int) shopId!: number;
  @Field(() => ShopStatusEnum) status!: ShopStatus;
  @Field({ nullable: true, description: 'The reason of the last suspension' }) reason?: string;
  @Field({ nullable: true, description: 'When the state last changed (absent: active since the shop was created)' }) changedAt?: Date;
}

@InputType()
export class SuspendShopInput {
  @Field(() => Int) shopId!: number;
  @Field({ description: 'Why (1 to 500 characters, not blank); told to the shop in the shop.suspended event' }) reason!: string;
}

@InputType()
export class ReinstateShopInput {
  @Field(() => Int) shopId!: number;
}

@InputType()
export class CloseShopInput {
  @Field(() => Int) shopId!: number;
}

export const SuspendShopPayload = PayloadType('SuspendShop', 'shopState', () => ShopState, 'The suspended shop', suspendShopRefusals);
export const ReinstateShopPayload = PayloadType('ReinstateShop', 'shopState', () => ShopState, 'The reinstated shop', reinstateShopRefusals);
export const CloseShopPayload = PayloadType('CloseShop', 'shopState', () => ShopState, 'The closed shop', closeShopRefusals);
