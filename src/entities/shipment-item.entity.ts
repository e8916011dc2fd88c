import { Entity, PrimaryKey, Property, ManyToOne, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, type Rel } from '@mikro-orm/core';
import { Shipment } from './shipment.entity.js';
import { OrderItem } from './order-item.entity.js';

@Entity()
@Check({ name: 'shipment_item_quantity_positive', expression: 'quantity > 0' })
export class ShipmentItem {
  declare [EntityName]?: 'ShipmentItem';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Shipment, { index: true })
  shipment!: Rel<Shipment>;

  @ManyToOne(() => OrderItem, { index: true })
  orderItem!: Rel<OrderItem>;

  @Property()
  quantity!: number;
}
