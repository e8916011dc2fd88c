import { Field, InputType } from 'type-graphql';
import { CouponChoiceInput } from './coupon.types.js';
import { GroupBuyIntentInput } from './group-buy.types.js';
import { Order, ShippingAddressInput } from './order.types.js';
import { PayloadType } from './payload.types.js';
import { checkoutRefusals } from '../../services/checkout/checkout.service.js';

@InputType()
export class CheckoutInput {
  @Field(() => ShippingAddressInput) shippingAddress!: ShippingAddressInput;
  @Field(() => [CouponChoiceInput], { nullable: true, description: 'At most one owned coupon per shop order' }) coupons?: CouponChoiceInput[] | null;
  @Field(() => GroupBuyIntentInput, { nullable: true, description: 'Buy one seat of a group instead of the cart' }) groupBuy?: GroupBuyIntentInput | null;
  @Field(() => String, { nullable: true, description: 'The same key replays the first committed answer (retry safely)' }) idempotencyKey?: string | null;
}

export const CheckoutPayload = PayloadType('Checkout', 'orders', () => [Order], 'The placed orders: one per shop in the cart, or the one group-buying order', checkoutRefusals);
