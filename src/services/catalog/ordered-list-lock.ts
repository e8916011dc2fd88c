import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { typedSql } from '../../db/typed-sql.js';

/** Advisory-lock namespace of the ordered lists that are replaced as a whole (two-key form). */
const ORDERED_LIST_LOCK = 771_010;
const ORDERED_LISTS = ['brands', 'banners', 'promos', 'quick_links', 'floor_adverts'] as const;

/**
 * Serializes replaces of one ordered list until the transaction ends. Without it two concurrent
 * replaces (delete, then insert) could both keep their rows and merge into one list.
 */
export async function lockOrderedList(em: EntityManager, list: (typeof ORDERED_LISTS)[number]): Promise<void> {
  await sql`select pg_advisory_xact_lock(${ORDERED_LIST_LOCK}, ${ORDERED_LISTS.indexOf(list)})`.execute(typedSql(em));
}
