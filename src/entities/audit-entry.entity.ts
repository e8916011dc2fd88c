import { Entity, PrimaryKey, Property, Index, Check, Trigger } from '@mikro-orm/decorators/legacy';
import { BigIntType, EntityName } from '@mikro-orm/core';
import { sqlTrigger } from './sql-trigger.js';

/** What a write did to its target row. */
export const AUDIT_ACTIONS = ['create', 'update', 'delete'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * One row a shop member or platform staff changed, written by the same transaction as the change
 * (src/shared/audit.ts): who, in which role, for which shop, the operation (its GraphQL field name,
 * the same through either door), the row (type and id), the changed fields before and after, the
 * request id and the time. An operation that changes several rows writes one entry per row, tied
 * together by the operation and the request id. A trigger refuses UPDATE and DELETE, so the log is
 * append-only in the database; a second trigger refuses TRUNCATE (MikroORM cannot see truncate
 * triggers: that one and the function live only in the AuditLog migration).
 * Written only by SQL (`storeAuditEntries`); the entity describes the table.
 */
@Entity()
@Index({ name: 'audit_entry_shop_id_id_index', properties: ['shopId', 'id'], where: 'shop_id is not null' })
@Index({ name: 'audit_entry_actor_id_id_index', properties: ['actorId', 'id'] })
@Index({ name: 'audit_entry_operation_id_index', properties: ['operation', 'id'] })
@Index({ name: 'audit_entry_target_index', properties: ['targetType', 'targetId', 'id'] })
@Index({ name: 'audit_entry_occurred_at_index', properties: ['occurredAt'] })
@Check({ name: 'audit_entry_action_check', expression: "action in ('create', 'update', 'delete')" })
@Trigger(sqlTrigger('create trigger audit_entry_no_update before update or delete on "audit_entry" for each row execute function audit_entry_append_only()'))
export class AuditEntry {
  declare [EntityName]?: 'AuditEntry';

  @PrimaryKey({ type: new BigIntType('string') })
  id!: string;

  /** When the write's transaction ran (`now()`: every entry of one transaction has the same time). */
  @Property({ columnType: 'timestamptz' })
  occurredAt!: Date;

  /** The user who wrote. No foreign key: the log outlives anything it names. */
  @Property({ type: 'integer' })
  actorId!: number;

  /** The role they wrote in (src/shared/audit-actor.ts). */
  @Property({ length: 40 })
  actorRole!: string;

  /** The shop the write was for: the operator's own, or the shop of the row an admin changed; null for platform rows. */
  @Property({ type: 'integer', nullable: true })
  shopId?: number | null;

  @Property({ length: 100 })
  operation!: string;

  /** The changed row's type, as its entity is named (`Product`, `ShopProfile`). */
  @Property({ length: 60 })
  targetType!: string;

  /** The changed row's primary key, as text (a composite key is its parts joined by `:`). */
  @Property({ length: 100 })
  targetId!: string;

  @Property({ length: 10 })
  action!: AuditAction;

  /** The changed fields' values before the write, by column name; null for a created row. */
  @Property({ type: 'json', nullable: true })
  before?: Record<string, unknown> | null;

  /** The changed fields' values after the write, by column name; null for a deleted row. */
  @Property({ type: 'json', nullable: true })
  after?: Record<string, unknown> | null;

  @Property({ length: 100 })
  requestId!: string;
}
