import { ArgsType, createUnionType, Field, ID, Int, ObjectType } from 'type-graphql';
import { OrderStatus } from '../../entities/order.entity.js';
import { GroupState } from '../../entities/group-buy.entity.js';
import { RefundKind, RefundStatus } from '../../entities/refund.entity.js';
import type { EventName, EventPayloads } from '../../shared/domain-event.js';
import { EventTypes, type EventType } from '../../services/events/event-types.js';
import { PayoutStatus } from '../../entities/settlement.entity.js';
import { ShopStatus } from '../../entities/shop.entity.js';
import { DisputeStatus } from '../../entities/dispute.entity.js';
import { EventTypeEnum, GroupStateEnum, OrderCancelReasonEnum, OrderStatusEnum, PayoutStatusEnum, RefundKindEnum, RefundStatusEnum, ShopStatusEnum, DisputeStatusEnum, WebhookDisabledReasonEnum } from './enums.js';

/** The payload of one event type, in a form a class may implement. */
type PayloadOf<T extends EventName> = EventPayloads[T];

// One object type per event type, each checked against its payload's one shape (`implements
// EventPayloads[...]`, src/shared/domain-event.ts) when it compiles, and with `DomainEvent` held to each
// type's envelope (EVENT_ENVELOPES) field by field, nullability and kind by test/one-description.test.ts;
// states are the objects' own enums. Written rather than made from the schemas: the event's id is an `ID`,
// its type the `EventType` enum, its payload a union, a payment's failure status text.

@ObjectType({ description: 'ORDER_PLACED: one per order a checkout placed' })
class OrderPlacedEventPayload implements PayloadOf<'order.placed'> {
  @Field(() => Int) orderId!: number;
  @Field(() => Int) total!: number;
  @Field(() => OrderStatusEnum) status!: OrderStatus;
}

@ObjectType({ description: 'ORDER_PAID: groupId when a group seat was paid; status is then AWAITING_GROUP, or PAID for the seat that filled the group' })
class OrderPaidEventPayload implements PayloadOf<'order.paid'> {
  @Field(() => Int) orderId!: number;
  @Field(() => Int) total!: number;
  @Field(() => OrderStatusEnum) status!: OrderStatus;
  @Field(() => Int, { nullable: true }) groupId?: number;
}

@ObjectType({ description: 'ORDER_CANCELLED' })
class OrderCancelledEventPayload implements PayloadOf<'order.cancelled'> {
  @Field(() => Int) orderId!: number;
  @Field(() => OrderCancelReasonEnum, { description: 'CUSTOMER, PAYMENT_TIMEOUT or GROUP_EXPIRED, as Order.cancelReason says' }) reason!: EventPayloads['order.cancelled']['reason'];
  @Field(() => OrderStatusEnum) status!: OrderStatus;
}

@ObjectType({ description: 'ORDER_DELIVERED: the customer confirmed delivery' })
class OrderDeliveredEventPayload implements PayloadOf<'order.delivered'> {
  @Field(() => Int) orderId!: number;
  @Field(() => OrderStatusEnum) status!: OrderStatus;
}

@ObjectType({ description: 'ORDER_COMPLETED: the after-sale window passed with no refund open; the sale is final' })
class OrderCompletedEventPayload implements PayloadOf<'order.completed'> {
  @Field(() => Int) orderId!: number;
  @Field(() => OrderStatusEnum) status!: OrderStatus;
}

@ObjectType({ description: 'SHIPMENT_CREATED' })
class ShipmentCreatedEventPayload implements PayloadOf<'shipment.created'> {
  @Field(() => Int) orderId!: number;
  @Field(() => Int) shipmentId!: number;
  @Field() companyCode!: string;
  @Field() carrier!: string;
  @Field() trackingNumber!: string;
}

@ObjectType({ description: 'GROUP_STATE_CHANGED: orderIds are the seat orders now paid (SUCCESSFUL) or cancelled (EXPIRED)' })
class GroupStateChangedEventPayload implements PayloadOf<'group.state_changed'> {
  @Field(() => Int) groupId!: number;
  @Field(() => Int) activityId!: number;
  @Field(() => GroupStateEnum) state!: GroupState;
  @Field(() => Int) paidSeats!: number;
  @Field(() => Int) capacity!: number;
  @Field(() => [Int]) orderIds!: number[];
}

@ObjectType({ description: 'REDEMPTION_CREATED' })
class RedemptionCreatedEventPayload implements PayloadOf<'redemption.created'> {
  @Field(() => Int) redemptionId!: number;
  @Field(() => Int) pointsProductId!: number;
  @Field(() => Int) quantity!: number;
  @Field(() => Int, { description: 'Points debited' }) points!: number;
}

@ObjectType({ description: "STOCK_LOW: once, when a sale takes a SKU's stock below the threshold" })
class StockLowEventPayload implements PayloadOf<'stock.low'> {
  @Field(() => Int) skuId!: number;
  @Field(() => Int) productId!: number;
  @Field(() => Int) stock!: number;
  @Field(() => Int) threshold!: number;
}

@ObjectType({ description: 'REVIEW_CREATED' })
class ReviewCreatedEventPayload implements PayloadOf<'review.created'> {
  @Field(() => Int) reviewId!: number;
  @Field(() => Int) productId!: number;
  @Field(() => Int) rating!: number;
}

@ObjectType({ description: 'REVIEW_REPLIED' })
class ReviewRepliedEventPayload implements PayloadOf<'review.replied'> {
  @Field(() => Int) reviewId!: number;
}

type RefundEventName = Extract<EventName, `refund.${string}`>;

/** The payload type of one refund event: the refund's new state, and the amount where the event carries it. */
function RefundEventPayload<T extends RefundEventName>(type: T, name: string, description: string, withAmount: boolean) {
  @ObjectType(name, { description })
  class Payload {
    @Field(() => Int) refundId!: number;
    @Field(() => Int) orderId!: number;
    @Field(() => RefundKindEnum) kind!: RefundKind;
    @Field(() => RefundStatusEnum) status!: RefundStatus;
  }
  if (withAmount) Field(() => Int, { description: 'Minor units credited on completion' })(Payload.prototype, 'amount');
  return Payload as new () => EventPayloads[T];
}

const RefundRequested = RefundEventPayload('refund.requested', 'RefundRequestedEventPayload', 'REFUND_REQUESTED', true);
const RefundApproved = RefundEventPayload('refund.approved', 'RefundApprovedEventPayload', 'REFUND_APPROVED: a return approved (an approved refund completes at once)', false);
const RefundShippedBack = RefundEventPayload('refund.shipped_back', 'RefundShippedBackEventPayload', 'REFUND_SHIPPED_BACK', false);
const RefundCompleted = RefundEventPayload('refund.completed', 'RefundCompletedEventPayload', 'REFUND_COMPLETED', true);
const RefundRejected = RefundEventPayload('refund.rejected', 'RefundRejectedEventPayload', 'REFUND_REJECTED', false);
const RefundCancelled = RefundEventPayload('refund.cancelled', 'RefundCancelledEventPayload', 'REFUND_CANCELLED', false);

@ObjectType({ description: 'EARNINGS_RELEASED: a completed order released its shop share; netted paid the shop debt, available became payable' })
class EarningsReleasedEventPayload implements PayloadOf<'earnings.released'> {
  @Field(() => Int) orderId!: number;
  @Field(() => Int) shopId!: number;
  @Field(() => Int) amount!: number;
  @Field(() => Int) netted!: number;
  @Field(() => Int) available!: number;
}

@ObjectType({ description: 'PAYOUT_CREATED: a payout batch moved the shop available balance in transit to its bank' })
class PayoutCreatedEventPayload implements PayloadOf<'payout.created'> {
  @Field(() => Int) payoutId!: number;
  @Field(() => Int) batchId!: number;
  @Field(() => Int) shopId!: number;
  @Field(() => Int) amount!: number;
}

@ObjectType({ description: 'PAYOUT_SETTLED: the bank paid the payout, or it failed (the money back in the shop available balance)' })
class PayoutSettledEventPayload implements PayloadOf<'payout.settled'> {
  @Field(() => Int) payoutId!: number;
  @Field(() => Int) shopId!: number;
  @Field(() => Int) amount!: number;
  @Field(() => PayoutStatusEnum) status!: PayoutStatus;
  @Field() failedAfterPaid!: boolean;
}

@ObjectType({ description: 'WEBHOOK_ENDPOINT_DISABLED: reason is failing (every attempt failed for WEBHOOK_DISABLE_AFTER_SECONDS) or gone (it answered 410)' })
class WebhookEndpointDisabledEventPayload implements PayloadOf<'webhook.endpoint_disabled'> {
  @Field(() => Int) endpointId!: number;
  @Field() url!: string;
  @Field(() => WebhookDisabledReasonEnum) reason!: EventPayloads['webhook.endpoint_disabled']['reason'];
}

@ObjectType({ description: 'SHOP_SUSPENDED: a platform admin suspended the shop, with the reason; its products are off the storefront, its payouts held' })
class ShopSuspendedEventPayload implements PayloadOf<'shop.suspended'> {
  @Field(() => Int) shopId!: number;
  @Field(() => ShopStatusEnum) status!: ShopStatus;
  @Field() reason!: string;
}

@ObjectType({ description: 'SHOP_REINSTATED: a suspended shop was reinstated; its products are back on the storefront' })
class ShopReinstatedEventPayload implements PayloadOf<'shop.reinstated'> {
  @Field(() => Int) shopId!: number;
  @Field(() => ShopStatusEnum) status!: ShopStatus;
}

@ObjectType({ description: 'SHOP_CLOSED: the shop closed for good' })
class ShopClosedEventPayload implements PayloadOf<'shop.closed'> {
  @Field(() => Int) shopId!: number;
  @Field(() => ShopStatusEnum) status!: ShopStatus;
}

@ObjectType({ description: 'DISPUTE_OPENED: a customer escalated a rejected refund to the platform' })
class DisputeOpenedEventPayload implements PayloadOf<'dispute.opened'> {
  @Field(() => Int) disputeId!: number;
  @Field(() => Int) refundId!: number;
  @Field(() => Int) orderId!: number;
  @Field(() => DisputeStatusEnum) status!: DisputeStatus;
}

@ObjectType({ description: 'DISPUTE_RESOLVED: the platform ruled; REFUNDED with the amount paid back, or UPHELD (amount 0)' })
class DisputeResolvedEventPayload implements PayloadOf<'dispute.resolved'> {
  @Field(() => Int) disputeId!: number;
  @Field(() => Int) refundId!: number;
  @Field(() => Int) orderId!: number;
  @Field(() => DisputeStatusEnum) status!: DisputeStatus;
  @Field(() => Int) amount!: number;
}

@ObjectType({ description: 'PAYMENT_CAPTURED: a gateway captured the payment; unpaidOrderIds: orders it could no longer pay, their money going back to the method' })
class PaymentCapturedEventPayload implements PayloadOf<'payment.captured'> {
  @Field(() => Int) paymentId!: number;
  @Field() method!: string;
  @Field(() => Int) amount!: number;
  @Field(() => [Int]) orderIds!: number[];
  @Field(() => [Int]) unpaidOrderIds!: number[];
}

@ObjectType({ description: 'PAYMENT_FAILED: a gateway payment ended without money; status failed, cancelled or expired' })
class PaymentFailedEventPayload implements PayloadOf<'payment.failed'> {
  @Field(() => Int) paymentId!: number;
  @Field() method!: string;
  @Field(() => Int) amount!: number;
  @Field(() => String) status!: EventPayloads['payment.failed']['status'];
  @Field(() => String, { nullable: true }) reason!: string | null;
}

@ObjectType({ description: 'PAYMENT_REFUNDED: a refund to the gateway settled; status succeeded or failed (the money back on the balance)' })
class PaymentRefundedEventPayload implements PayloadOf<'payment.refunded'> {
  @Field(() => Int) paymentId!: number;
  @Field() method!: string;
  @Field(() => Int) amount!: number;
  @Field(() => String) status!: EventPayloads['payment.refunded']['status'];
}

/** Each event type's payload type (one each, so `__typename` tells the event type too). */
const PAYLOAD_TYPES = {
  [EventTypes.ORDER_PLACED]: OrderPlacedEventPayload,
  [EventTypes.WEBHOOK_ENDPOINT_DISABLED]: WebhookEndpointDisabledEventPayload,
  [EventTypes.ORDER_PAID]: OrderPaidEventPayload,
  [EventTypes.ORDER_CANCELLED]: OrderCancelledEventPayload,
  [EventTypes.ORDER_DELIVERED]: OrderDeliveredEventPayload,
  [EventTypes.ORDER_COMPLETED]: OrderCompletedEventPayload,
  [EventTypes.SHIPMENT_CREATED]: ShipmentCreatedEventPayload,
  [EventTypes.GROUP_STATE_CHANGED]: GroupStateChangedEventPayload,
  [EventTypes.REDEMPTION_CREATED]: RedemptionCreatedEventPayload,
  [EventTypes.STOCK_LOW]: StockLowEventPayload,
  [EventTypes.REVIEW_CREATED]: ReviewCreatedEventPayload,
  [EventTypes.REVIEW_REPLIED]: ReviewRepliedEventPayload,
  [EventTypes.REFUND_REQUESTED]: RefundRequested,
  [EventTypes.REFUND_APPROVED]: RefundApproved,
  [EventTypes.REFUND_SHIPPED_BACK]: RefundShippedBack,
  [EventTypes.REFUND_COMPLETED]: RefundCompleted,
  [EventTypes.REFUND_REJECTED]: RefundRejected,
  [EventTypes.REFUND_CANCELLED]: RefundCancelled,
  [EventTypes.EARNINGS_RELEASED]: EarningsReleasedEventPayload,
  [EventTypes.PAYOUT_CREATED]: PayoutCreatedEventPayload,
  [EventTypes.PAYOUT_SETTLED]: PayoutSettledEventPayload,
  [EventTypes.PAYMENT_CAPTURED]: PaymentCapturedEventPayload,
  [EventTypes.PAYMENT_FAILED]: PaymentFailedEventPayload,
  [EventTypes.PAYMENT_REFUNDED]: PaymentRefundedEventPayload,
  [EventTypes.SHOP_SUSPENDED]: ShopSuspendedEventPayload,
  [EventTypes.SHOP_REINSTATED]: ShopReinstatedEventPayload,
  [EventTypes.SHOP_CLOSED]: ShopClosedEventPayload,
  [EventTypes.DISPUTE_OPENED]: DisputeOpenedEventPayload,
  [EventTypes.DISPUTE_RESOLVED]: DisputeResolvedEventPayload,
} satisfies { [T in EventName]: new () => EventPayloads[T] };

/** Which event a payload value came from: set by `DomainEvent.payload`, read by the union's type resolver. */
export const PAYLOAD_OF = Symbol('event type');
export type TaggedPayload = EventPayloads[EventName] & { [PAYLOAD_OF]: EventName };

/** The payload type of a tagged payload value. */
export const payloadTypeOf = (value: unknown) => PAYLOAD_TYPES[(value as TaggedPayload)[PAYLOAD_OF]];

export const EventPayloadUnion = createUnionType({
  name: 'EventPayload',
  description: "What happened, by event type: one type per EventType (its `__typename` says which)",
  types: () => Object.values(PAYLOAD_TYPES),
  resolveType: payloadTypeOf,
});

@ObjectType('DomainEvent', { description: 'Something that happened in a committed transaction' })
export class DomainEventType {
  @Field(() => ID, { description: "The event's place in the outbox, growing in commit order: resume a feed with `after` set to the last one received" }) id!: string;
  @Field(() => EventTypeEnum) type!: EventType;
  @Field(() => Date) occurredAt!: string;
  @Field(() => [Int], { description: 'Shops the event concerns' }) shopIds!: number[];
  @Field(() => Int, { nullable: true, description: 'The customer the event concerns, if one' }) customerId!: number | null;
  // `payload` (the EventPayload union) is resolved by EventsResolver, which tags it with its event type.
}

@ArgsType()
export class EventFeedArgs {
  @Field(() => [EventTypeEnum], { nullable: true, description: 'Only these kinds (all when absent)' })
  types?: EventType[] | null;

  @Field(() => ID, { nullable: true, description: 'Replay the stored events after this id first, then go live' })
  after?: string | null;
}

@ArgsType()
export class EventListArgs {
  @Field(() => ID, { nullable: true, description: 'Events after this id (default 0: from the oldest kept)' })
  after?: string | null;

  @Field(() => [EventTypeEnum], { nullable: true, description: 'Only these kinds (all you may see when absent or empty)' })
  types?: EventType[] | null;

  @Field(() => Int, { nullable: true, description: 'At most this many (1-500, default 100)' })
  limit?: number | null;
}

@ObjectType({ description: 'Stored events after an id, oldest first, and the id to ask after next time. Not a Page: a feed is resumed by event id, which stays valid as events are added, where a page number would not' })
export class EventFeed {
  @Field(() => [DomainEventType]) events!: DomainEventType[];
  @Field(() => ID, { description: 'Ask `after` this id next time (the last event returned, else the `after` asked)' }) next!: string;
}
