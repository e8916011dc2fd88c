import { expressionBuilder, sql, type Expression, type QueryCreator } from 'kysely';
import { fixedStatement, preparedQuery } from '../../db/prepared-queries.js';
import type { Database } from '../../db/typed-sql.js';
import { z } from '../../shared/validate.js';

/**
 * Retention of the sales-change log (migration SalesChangeLog): per shard, deletes the changes logged
 * before the cut-off, as a prefix of the shard's counters, and moves the shard's horizon to the last
 * counter deleted, in the same statement, so a snapshot sees either both or neither. A remembered
 * ranking held at a counter below its shard's horizon is ranked again (product.repository.ts
 * `rankedPage`). Parameter: the retention in seconds.
 */
export const pruneSalesChanges = fixedStatement({
  name: 'sales_change_prune',
  row: z.object({ pruned: z.number().int() }),
  text: `
with cut as (
  select shard, max(n) as through from sales_change where at < clock_timestamp() - ?::int * interval '1 second' group by shard
),
gone as (delete from sales_change c using cut where c.shard = cut.shard and c.n <= cut.through returning c.n),
moved as (
  update sales_change_horizon h set pruned_through = cut.through from cut
   where h.shard = cut.shard and cut.through > h.pruned_through
  returning h.shard
)
select (select count(*) from gone)::int as pruned`,
});

/**
 * The sales version's shard counters in shard order, as PostgreSQL writes a bigint[] (`{3,0,...}`):
 * a ranking or the sales tally keeps them, and a later statement returns the changes logged since
 * (`salesChangesSince`).
 */
export const salesVector = () =>
  sql<string>`array(${expressionBuilder<Database, never>().selectFrom('SalesVersion as sv').select('sv.n as n').orderBy('sv.shard')})::text`;

/** A shard's counter in counters sent as text (`since`). */
const counterOf = (since: string, shard: Expression<number>) => sql<string>`(${since}::bigint[])[${shard} + 1]`;

/**
 * The changes logged since the counters `since`, summed per product (a bulk statement's change has no
 * product). Only the shards that moved are read, each along its primary key from its counter on.
 */
export const salesChangesSince = (db: QueryCreator<Database>, since: string) =>
  db
    .selectFrom('SalesVersion as sv')
    // Lateral, and kept a subquery (`offset 0`): each moved shard reads its log along the primary
    // key from its counter in `since`; joined flat, the planner chose a scan of the whole log.
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('SalesChange as c')
          .select(['c.productId as product', 'c.delta as change'])
          .whereRef('c.shard', '=', 'sv.shard')
          .where((e) => e('c.n', '>', counterOf(since, e.ref('sv.shard'))))
          .offset(sql.lit(0))
          .as('l'),
      (join) => join.onTrue(),
    )
    .select((eb) => [eb.ref('l.product').as('product'), sql<number>`sum(${eb.ref('l.change')})::int`.as('delta')])
    .where((eb) => eb('sv.n', '>', counterOf(since, eb.ref('sv.shard'))))
    .groupBy('l.product');

type WithChanges = Database & { changes: { product: number | null; delta: number } };

/**
 * Whether the log cannot tell what moved since `since` (read from a `changes` CTE of
 * `salesChangesSince`): a bulk statement's change (no product), or a shard pruned past its counter.
 */
export const resetSince = (since: string) => {
  const eb = expressionBuilder<WithChanges, never>();
  return sql<boolean>`exists (${eb.selectFrom('changes').select(sql.lit(1).as('one')).where('changes.product', 'is', null)}) or exists (${eb
    .selectFrom('SalesChangeHorizon as h')
    .select(sql.lit(1).as('one'))
    .where((e) => e('h.prunedThrough', '>', counterOf(since, e.ref('h.shard'))))})`;
};

/**
 * Whether a shard is now below its counter in `since`: the database was restored, or a replica
 * promoted, behind what was seen, and what was counted since may never have happened. Checked by the
 * sales tally's catch-up only, not by every page of a remembered ranking (a cost on the hottest
 * statement for an event after which a ranking is corrected at its next ranking, from the tally).
 */
const wentBack = (since: string) =>
  sql<boolean>`exists (${expressionBuilder<Database, never>()
    .selectFrom('SalesVersion as sv')
    .select(sql.lit(1).as('one'))
    .where((e) => e('sv.n', '<', counterOf(since, e.ref('sv.shard'))))})`;

/** The moved products in id order, and what each moved by (same order): a `changes` CTE's rows with a product. */
export const movedProducts = () => {
  const moved = expressionBuilder<WithChanges, never>().selectFrom('changes').where('changes.product', 'is not', null).orderBy('changes.product');
  return { ids: sql<number[]>`array(${moved.select('changes.product')})`, deltas: sql<number[]>`array(${moved.select('changes.delta')})` };
};

/**
 * Every product's sold_count (the products with a sold line; any other sold none), with the sales
 * version it holds at, in one statement and so one snapshot (src/services/catalog/sales-tally.ts).
 */
export const salesTally = preparedQuery({
  name: 'sales_tally',
  examples: [{}],
  build: (db) =>
    db
      .selectFrom((qb) =>
        qb
          .selectFrom('OrderItem as oi')
          .select((eb) => [eb.ref('oi.product').as('id'), sql<number>`sum(${eb.ref('oi.quantity')})::int`.as('sold')])
          .where((eb) => eb.ref('oi.sold'))
          .groupBy('oi.product')
          .as('t'),
      )
      .select([
        salesVector().as('salesVector'),
        // Pairs of big-endian int4 (id, sold) in one bytea: 8 bytes a product on the wire and in the
        // process, where two int[] were parsed element by element (docs/decisions.md).
        sql<Buffer>`coalesce(string_agg(int4send(${sql.ref('t.id')}) || int4send(${sql.ref('t.sold')}), ''::bytea), ''::bytea)`.as('pairs'),
      ]),
});

/**
 * What moved sold_count since the counters `since` (as `rankedPage` reads it), with the counters now;
 * `resetSince` also when a counter went back.
 */
export const salesTallyChanges = preparedQuery({
  name: 'sales_tally_changes',
  examples: [{}],
  build: (db, _shape: object, v: { since: string }) =>
    db
      .with('changes', (qb) => salesChangesSince(qb, v.since))
      .selectNoFrom(() => {
        const moved = movedProducts();
        return [
          salesVector().as('salesVector'),
          sql<boolean>`${resetSince(v.since)} or ${wentBack(v.since)}`.as('resetSince'),
          moved.ids.as('changedIds'),
          moved.deltas.as('changedBy'),
        ];
      }),
});
