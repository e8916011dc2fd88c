import { fixedStatement } from '../db/prepared-queries.js';
import { z } from './validate.js';

/**
 * The audit log's one write: the entries of a use case, inserted by its transaction just before it
 * commits (`inTransaction`), in the order the rows were written, all at the transaction's time.
 * Parameters: actor id, actor role, operation, request id, and the entries as JSON.
 */
export const storeAuditEntries = fixedStatement({
  name: 'store_audit_entries',
  row: z.object({ id: z.string() }),
  text: `
insert into audit_entry (occurred_at, actor_id, actor_role, shop_id, operation, target_type, target_id, action, before, after, request_id)
select now(), ?::int, ?::text, e.shop_id, ?::text, e.target_type, e.target_id, e.action, e.before, e.after, ?::text
  from rows from (json_to_recordset(?::json) as (shop_id int, target_type text, target_id text, action text, before jsonb, after jsonb))
       with ordinality as e(shop_id, target_type, target_id, action, before, after, n)
 order by e.n
returning id::text as id`,
});
