import { ArgsType, Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { OrderStatus } from '../../entities/order.entity.js';
import { ItemPricing } from '../../entities/order-item.entity.js';
import { PageArgs } from './page.types.js';

registerEnumType(OrderStatus, {
  name: 'OrderStatus',
  description: 'pending_payment -> paid -> shipped -> delivered, or pending_payment -> cancelled; a group order: pending_payment -> awaiting_group -> paid (group successful) or cancelled (group expired)',
});
registerEnumType(ItemPricing, { name: 'ItemPricing' });

@ObjectType()
export class ShopSummary {
  @Field(() => Int) id!: number;
  @Field() slug!: string;
  @Field() name!: string;
}

@ObjectType()
export class CartLine {
  @Field(() => Int) skuId!: number;
  @Field() skuName!: string;
  @Field(() => Int) productId!: number;
  @Field() productName!: string;
  @Field({ nullable: true }) imageUrl?: string;
  @Field(() => Int) unitPrice!: number;
  @Field(() => Int) quantity!: number;
  @Field(() => Int) lineTotal!: number;
  @Field(() => Int, { description: 'Current stock of the SKU; checkout refuses more' }) stock!: number;
  @Field(() => ShopSummary) shop!: ShopSummary;
  @Field({ description: 'False when the product is no longer on sale' }) available!: boolean;
}

@ObjectType()
export class Cart {
  @Field(() => [CartLine]) lines!: CartLine[];
  @Field(() => Int) itemCount!: number;
  @Field(() => Int) total!: number;
}

@ObjectType()
export class OrderItem {
  @Field(() => Int) id!: number;
  @Field(() => Int) productId!: number;
  @Field(() => Int) skuId!: number;
  @Field() productName!: string;
  @Field() skuName!: string;
  @Field(() => Int, { description: 'Unit price snapshot taken at checkout' }) unitPrice!: number;
  @Field(() => Int) quantity!: number;
  @Field(() => Int) amount!: number;
  @Field(() => ItemPricing) pricing!: ItemPricing;
  @Field(() => Int) shippedQuantity!: number;
  @Field(() => Int, { nullable: true, description: 'The flash-sale activity item that priced a flash_sale item' }) flashSaleItemId?: number;
  @Field(() => Int, { description: 'Units in open or completed refunds and returns' }) refundQuantity!: number;
}

@ObjectType()
export class ShipmentPart {
  @Field(() => Int) orderItemId!: number;
  @Field(() => Int) quantity!: number;
}

@ObjectType()
export class Shipment {
  @Field(() => Int) id!: number;
  @Field({ description: 'Code of the shipping company (see shippingCompanies)' }) companyCode!: string;
  @Field({ description: "The company's name when the parcel was sent" }) carrier!: string;
  @Field() trackingNumber!: string;
  @Field() createdAt!: Date;
  @Field(() => [ShipmentPart], { nullable: true, description: 'Absent when the parcel carried the whole order' }) items?: ShipmentPart[];
}

@ObjectType()
export class ShippingAddress {
  @Field() recipient!: string;
  @Field() phone!: string;
  @Field({ description: 'Region code such as CN-BJ; freight templates match it' }) region!: string;
  @Field() address!: string;
}

@ObjectType()
export class Order {
  @Field(() => Int) id!: number;
  @Field(() => Int) customerId!: number;
  @Field(() => ShopSummary) shop!: ShopSummary;
  @Field(() => OrderStatus) status!: OrderStatus;
  @Field() currency!: string;
  @Field(() => Int) itemsTotal!: number;
  @Field(() => Int, { description: 'Realized coupon discount' }) discount!: number;
  @Field(() => Int, { nullable: true, description: 'The coupon applied at checkout' }) couponId?: number;
  @Field(() => Int, { description: 'Computed by the server from the lines and the shipping region' }) freightFee!: number;
  @Field(() => Int, { description: 'itemsTotal - discount + freightFee' }) total!: number;
  @Field(() => ShippingAddress, { nullable: true }) shippingAddress?: ShippingAddress;
  @Field() createdAt!: Date;
  @Field({ nullable: true }) paidAt?: Date;
  @Field({ nullable: true }) shippedAt?: Date;
  @Field({ nullable: true }) deliveredAt?: Date;
  @Field({ nullable: true }) cancelledAt?: Date;
  @Field({ nullable: true }) cancelReason?: string;
  @Field(() => Int, { nullable: true, description: 'Group-buying order: the group it takes a seat in' }) groupId?: number;
  @Field(() => Int, { nullable: true, description: 'Group-buying order: the seat price snapshotted at checkout' }) groupPrice?: number;
  @Field(() => [OrderItem]) items!: OrderItem[];
  @Field(() => [Shipment]) shipments!: Shipment[];
}

@ObjectType({ description: 'An item a checkout would place, priced as the checkout prices it' })
export class CheckoutPreviewItem {
  @Field(() => Int) skuId!: number;
  @Field() skuName!: string;
  @Field(() => Int) productId!: number;
  @Field() productName!: string;
  @Field(() => Int) unitPrice!: number;
  @Field(() => Int) quantity!: number;
  @Field(() => ItemPricing) pricing!: ItemPricing;
  @Field(() => Int, { nullable: true }) flashSaleItemId?: number;
}

@ObjectType({ description: 'One shop order a checkout would place now' })
export class CheckoutPreviewOrder {
  @Field(() => ShopSummary) shop!: ShopSummary;
  @Field(() => [CheckoutPreviewItem]) items!: CheckoutPreviewItem[];
  @Field(() => Int) itemsTotal!: number;
  @Field(() => Int) discount!: number;
  @Field(() => Int, { nullable: true }) couponId?: number;
  @Field(() => Int) freightFee!: number;
  @Field(() => Int) total!: number;
}

@ObjectType({ description: 'What checking the cart out now would place, priced by the server; nothing is written or reserved' })
export class CheckoutPreview {
  @Field() currency!: string;
  @Field(() => [CheckoutPreviewOrder]) orders!: CheckoutPreviewOrder[];
  @Field(() => Int) total!: number;
}

@ObjectType()
export class OrderPage {
  @Field(() => [Order]) items!: Order[];
  @Field(() => Int) page!: number;
  @Field(() => Int) pageSize!: number;
  @Field(() => Int) total!: number;
}

@ObjectType()
export class Invoice {
  @Field(() => Int) orderId!: number;
  @Field({ description: 'not_issued until the shop issues it, then issued' }) status!: string;
  @Field(() => String, { nullable: true, description: 'Set when the shop issues the invoice' }) invoiceNo!: string | null;
  @Field({ nullable: true }) title?: string;
  @Field({ nullable: true }) taxNumber?: string;
  @Field(() => Int) amount!: number;
  @Field({ nullable: true }) issuedAt?: Date;
}

@ObjectType()
export class OrderCounts {
  @Field(() => Int) pending_payment!: number;
  @Field(() => Int) awaiting_group!: number;
  @Field(() => Int) paid!: number;
  @Field(() => Int) shipped!: number;
  @Field(() => Int) delivered!: number;
  @Field(() => Int) cancelled!: number;
}

@ObjectType()
export class AccountStats {
  @Field() currency!: string;
  @Field(() => Int) available!: number;
  @Field(() => Int) frozen!: number;
  @Field(() => Int) points!: number;
  @Field(() => OrderCounts) orders!: OrderCounts;
}

@InputType()
export class ShipmentPartInput {
  @Field(() => Int) orderItemId!: number;
  @Field(() => Int) quantity!: number;
}

@InputType()
export class ShipmentInput {
  @Field({ description: 'Code of an active shipping company (see shippingCompanies)' }) companyCode!: string;
  @Field() trackingNumber!: string;
  @Field(() => [ShipmentPartInput], { nullable: true, description: 'Absent: everything not yet shipped' }) items?: ShipmentPartInput[];
}

@InputType()
export class InvoiceInput {
  @Field({ nullable: true }) title?: string;
  @Field({ nullable: true }) taxNumber?: string;
}

@InputType()
export class ShippingAddressInput {
  @Field() recipient!: string;
  @Field() phone!: string;
  @Field({ description: 'Region code such as CN-BJ (ISO 3166-2 style)' }) region!: string;
  @Field() address!: string;
}

@ArgsType()
export class OrderListArgs extends PageArgs {
  @Field(() => OrderStatus, { nullable: true }) status?: OrderStatus | null;
}
