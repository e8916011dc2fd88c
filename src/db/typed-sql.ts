import type { Opt } from '@mikro-orm/core';
import type { EntityManager, InferClassEntityDB } from '@mikro-orm/postgresql';
import type { entities } from '../entities/index.js';

/**
 * Tables by entity name and columns by property name, as the entities declare them; values are
 * converted as the ORM converts them (a timestamp arrives as a Date, a bigint as its entity type says).
 */
export const KYSELY_OPTIONS = { tableNamingStrategy: 'entity', columnNamingStrategy: 'property', convertValues: true } as const;

type Inferred = InferClassEntityDB<(typeof entities)[number], typeof KYSELY_OPTIONS>;

/**
 * A row as the database holds it. The entities declare a nullable column as an optional property
 * (`paidAt?: Date | null`: a new entity may not have it yet), and a column with a value given on
 * creation as `Opt<T>`; a row has every column, `T | null` when nullable.
 */
type Row<T> = { [C in keyof T]-?: Column<T[C]> };
type Column<V> = V extends undefined ? never : V extends Opt<infer T> ? T : V;

/** Every table, typed from its entity (`[EntityName]` names it). `Shop.profile` is the inverse side of `ShopProfile.shop`, not a column. */
export type Database = { [T in keyof Inferred]: Row<T extends 'Shop' ? Omit<Inferred[T], 'profile'> : Inferred[T]> };

/** Typed Kysely on this entity manager (joins its transaction when it is in one). */
export function typedSql(em: EntityManager) {
  return em.getKysely<Database>(KYSELY_OPTIONS);
}
