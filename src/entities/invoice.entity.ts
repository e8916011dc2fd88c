import { Entity, PrimaryKey, Property, ManyToOne } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { Order } from './order.entity.js';

/**
 * The invoice a shop issues for a paid order. Until it is issued the customer's invoice view has
 * `invoice_no` null; the number is taken from a sequence at issue time.
 */
@Entity()
export class Invoice {
  declare [EntityName]?: 'Invoice';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Order, { unique: true })
  order!: Rel<Order>;

  @Property({ length: 40, unique: true })
  invoiceNo!: string;

  /** Buyer's name or company as printed. */
  @Property({ length: 200 })
  title!: string;

  @Property({ length: 40, nullable: true })
  taxNumber?: string | null;

  @Property()
  amount!: number;

  @Property({ columnType: 'timestamptz' })
  issuedAt: Date & Opt = new Date();
}
