import { Entity, PrimaryKey, Property, ManyToOne, Index } from '@mikro-orm/decorators/legacy';
import { BigIntType, type Opt, type Rel } from '@mikro-orm/core';
import { Balance } from './balance.entity.js';

/**
 * Immutable record of one balance change. A trigger (in the migration) refuses UPDATE and DELETE, so
 * the ledger is append-only in the database and not only by convention.
 */
@Entity()
@Index({ properties: ['referenceType', 'referenceId'] })
export class LedgerEntry {
  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Balance, { index: true })
  balance!: Rel<Balance>;

  /** Signed change: positive for credits, negative for debits. */
  @Property({ type: new BigIntType('number') })
  delta!: number;

  /** The balance's amount right after this change. */
  @Property({ type: new BigIntType('number') })
  balanceAfter!: number;

  /** Why it changed: seed, order_payment, freeze, release, refund, ... */
  @Property({ length: 40 })
  reason!: string;

  /** What it refers to, e.g. ('order', 42). */
  @Property({ length: 40, nullable: true })
  referenceType?: string | null;

  @Property({ type: 'integer', nullable: true })
  referenceId?: number | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
