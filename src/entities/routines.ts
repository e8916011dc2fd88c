import { Routine } from '@mikro-orm/core';

/**
 * `mf_refuse(code, details)`: raises SQLSTATE `MF001` with the refusal as its detail, one JSON object
 * of the details and the code (`{"code": ..., ...}`), read as data (never from the message). Checkout writes its orders, items, counters and stock decrements in one
 * statement (`src/services/checkout/place-orders-statement.ts`); when one of its guarded writes finds fewer rows than it
 * needs, the statement calls this so that the whole statement, and so every write in it, fails.
 * Created by the CheckoutRefusal migration, changed by StructuredRefusals; declared here so the schema comparator knows it.
 */
export const MfRefuse = new Routine({
  name: 'mf_refuse',
  type: 'function',
  language: 'plpgsql',
  params: {
    code: { type: 'text' },
    details: { type: 'json' },
  },
  returns: { runtimeType: 'number', columnType: 'int' },
  body: "raise exception using errcode = 'MF001', message = 'refused: ' || code,\n          detail = (coalesce(details::jsonb, '{}'::jsonb) || jsonb_build_object('code', code))::text;",
});

/**
 * Every stored routine the entities rely on. Trigger functions are not listed: MikroORM leaves
 * functions returning `trigger` to their triggers (see the entities' `@Trigger` declarations).
 */
export const routines = [MfRefuse];
