import { Field, InputType, Int } from 'type-graphql';
import { closeShopRefusals, reinstateShopRefusals, suspendShopRefusals } from '../../services/shops/shop-state.service.js';
import { PayloadType } from './payload.types.js';
// The ShopStatus enum is registered there.
import './enums.js';
import { objectType } from './object-type.js';
import { ShopStateView } from '../../services/shops/shop-state-view.js';

// Made from the shop state's view schema (object-type.ts).
export const ShopState = objectType('ShopState', ShopStateView);

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
