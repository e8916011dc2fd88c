import { fixedStatement } from '../../db/prepared-queries.js';
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
