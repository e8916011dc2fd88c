import { Entity, PrimaryKey, Property, ManyToOne, Index, Unique, Trigger } from '@mikro-orm/decorators/legacy';
import { EntityName, BigIntType, type Opt, type Rel } from '@mikro-orm/core';
import { Balance } from './balance.entity.js';
import { sqlTrigger } from './sql-trigger.js';

/**
 * Every reason a ledger entry is written with: the statement's `reason` is one of them (GraphQL's
 * `LedgerReason`, an enum in the OpenAPI document). `opening_*` are the entries the double-entry
 * migration opened the accounts with.
 */
export const LEDGER_REASONS = [
  'seed', 'order_payment', 'commission', 'group_seat', 'group_settlement', 'group_expired', 'earnings_released', 'debt_netted',
  'refund', 'refund_commission', 'refund_shortfall', 'payout', 'payout_paid', 'payout_failed', 'payout_returned',
  'redemption', 'points_earned', 'points_reversed', 'opening_pending', 'opening_balance', 'payment_capture', 'payment_refund',
] as const;
export type LedgerReason = (typeof LEDGER_REASONS)[number];

/**
 * Immutable record of one balance change. A trigger refuses UPDATE and DELETE, so the ledger is
 * append-only in the database and not only by convention. A second trigger refuses TRUNCATE; MikroORM
 * cannot see truncate triggers, so that one (and the trigger function) lives only in the Foundation migration.
 */
@Entity()
@Index({ properties: ['referenceType', 'referenceId'] })
// A transfer's two entries; the reconciliation report reads a day's entries.
@Index({ name: 'ledger_entry_transfer_id_index', properties: ['transferId'], where: 'transfer_id is not null' })
@Index({ name: 'ledger_entry_created_at_index', properties: ['createdAt'] })
// Backstops: one points debit per redemption, one points credit per delivered order.
@Unique({ name: 'ledger_entry_one_debit_per_redemption', properties: ['referenceId'], where: "reason = 'redemption' and reference_type = 'redemption'" })
@Unique({ name: 'ledger_entry_one_points_credit_per_order', properties: ['referenceId'], where: "reason = 'points_earned' and reference_type = 'order'" })
@Trigger(sqlTrigger('create trigger ledger_entry_no_update before update or delete on "ledger_entry" for each row execute function ledger_entry_append_only()'))
export class LedgerEntry {
  declare [EntityName]?: 'LedgerEntry';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Balance, { index: true })
  balance!: Rel<Balance>;

  /**
   * The transfer this entry is one side of (its other entry has the same id and the opposite delta).
   * Null for points, which are not money, and for money entries written before the ledger was
   * double-entry (their other side is the opening entry of `platform_clearing`).
   */
  @Property({ type: new BigIntType('number'), nullable: true })
  transferId?: number | null;

  /** Signed change: positive for credits, negative for debits. */
  @Property({ type: new BigIntType('number') })
  delta!: number;

  /** The balance's amount right after this change. */
  @Property({ type: new BigIntType('number') })
  balanceAfter!: number;

  /** Why it changed: one of LEDGER_REASONS. */
  @Property({ type: 'string', length: 40 })
  reason!: LedgerReason;

  /** What it refers to, e.g. ('order', 42). */
  @Property({ length: 40, nullable: true })
  referenceType?: string | null;

  @Property({ type: 'integer', nullable: true })
  referenceId?: number | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
