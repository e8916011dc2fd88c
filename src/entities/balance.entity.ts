import { Entity, PrimaryKey, Property, ManyToOne, Enum, Check, Unique } from '@mikro-orm/decorators/legacy';
import { BigIntType, EntityName, type Rel } from '@mikro-orm/core';
import { User } from './user.entity.js';

export enum BalanceKind {
  Available = 'available',
  Frozen = 'frozen',
  Points = 'points',
}

/**
 * One row per (user, kind, currency); the unique index is NULLS NOT DISTINCT so a second `points`
 * row, whose currency is null, is refused too. Changed only by the ledger service.
 */
@Entity()
// MikroORM has no option for NULLS NOT DISTINCT: the raw definition creates it, and the schema
// comparator then matches the index by name only.
@Unique({
  name: 'balance_user_kind_currency_unique',
  expression: 'create unique index "balance_user_kind_currency_unique" on "balance" ("user_id", "kind", "currency") nulls not distinct',
})
@Check({ name: 'balance_amount_non_negative', expression: 'amount >= 0' })
@Check({ name: 'balance_currency_matches_kind', expression: "(kind = 'points') = (currency is null)" })
export class Balance {
  declare [EntityName]?: 'Balance';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: Rel<User>;

  @Enum({ items: () => BalanceKind })
  kind!: BalanceKind;

  @Property({ length: 3, nullable: true })
  currency?: string | null;

  /** Minor units of the currency, or points. */
  @Property({ type: new BigIntType('number') })
  amount!: number;
}
