import { Entity, PrimaryKey, Property, ManyToOne } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { Order } from './order.entity.js';
import { ShippingCompany } from './shipping-company.entity.js';

/** A parcel sent by the shop. `items` (ShipmentItem) say what it holds; none means the whole order. */
@Entity()
export class Shipment {
  declare [EntityName]?: 'Shipment';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Order, { index: true })
  order!: Rel<Order>;

  @ManyToOne(() => ShippingCompany)
  company!: Rel<ShippingCompany>;

  /** The company's name when the parcel was sent. */
  @Property({ length: 80 })
  carrier!: string;

  @Property({ length: 80 })
  trackingNumber!: string;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
