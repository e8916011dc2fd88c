import { z } from 'zod';
import { count, id, money, timestamp as viewTimestamp } from '../../shared/view-fields.js';
import { ShopRef as ShopRefView } from '../../services/catalog/catalog-views.js';
import { ShippingAddressView } from '../../services/shipping/shipping-address.js';

/**
 * Response bodies as zod schemas, camelCase like the services' views: the OpenAPI document shows
 * them snake_case, as REST sends them (case.ts). Each named one becomes a component schema. Where a
 * service declares its view as a schema (the order's resources: orders/order-view.ts), the response
 * is that schema, named here; the others are still written here, and test/one-description.test.ts
 * holds them to the GraphQL types of the same name. Objects are strict (no other keys) so the
 * contract test (test/support/contract.ts) notices a field the document lacks.
 */
export const responseSchemas = z.registry<{ id: string }>();

export function named<S extends z.ZodType>(id: string, schema: S): S {
  responseSchemas.add(schema, { id });
  return schema;
}

export { count, id, money };
/** Timestamps: `Date`s in the views, ISO 8601 in UTC with milliseconds in the JSON (rest/openapi/json-schema.ts). */
export const timestamp = named('Timestamp', viewTimestamp);

export const ShopRef = named('ShopRef', ShopRefView);

export const ShippingAddress = named('ShippingAddress', ShippingAddressView);

/** A page of a list: `page` from 1, `page_size` as asked (default 20), `total` of the whole list. */
export const page = <S extends z.ZodType>(item: S) =>
  z.strictObject({ items: z.array(item), page: z.number().int().min(1), pageSize: z.number().int().min(1), total: count });

/** A small list read and replaced as a whole. */
export const itemsOf = <S extends z.ZodType>(item: S) => z.strictObject({ items: z.array(item) });
