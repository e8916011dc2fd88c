import { z } from 'zod';
import { regionCode } from '../../services/shipping/regions.js';

/**
 * Response bodies as zod schemas, camelCase like the services' views: the OpenAPI document shows
 * them snake_case, as REST sends them (case.ts). Each named one becomes a component schema.
 * Objects are strict (no other keys) so the contract test (test/support/contract.ts) notices a
 * field the document lacks.
 */
export const responseSchemas = z.registry<{ id: string }>();

export function named<S extends z.ZodType>(id: string, schema: S): S {
  responseSchemas.add(schema, { id });
  return schema;
}

/** Timestamps: ISO 8601 in UTC with milliseconds, as `Date#toJSON` writes them. */
export const timestamp = named('Timestamp', z.iso.datetime({ precision: 3 }));
export const id = z.number().int().positive();
/** Money: whole minor units of the base currency (see `GET /api/currency`). */
export const money = z.number().int().min(0);
export const count = z.number().int().min(0);

export const ShopRef = named('ShopRef', z.strictObject({ id, slug: z.string(), name: z.string() }));

export const ShippingAddress = named(
  'ShippingAddress',
  z.strictObject({ recipient: z.string(), phone: z.string(), region: regionCode, address: z.string() }),
);

/** A page of a list: `page` from 1, `page_size` as asked (default 20), `total` of the whole list. */
export const page = <S extends z.ZodType>(item: S) =>
  z.strictObject({ items: z.array(item), page: z.number().int().min(1), pageSize: z.number().int().min(1), total: count });

/** A small list read and replaced as a whole. */
export const itemsOf = <S extends z.ZodType>(item: S) => z.strictObject({ items: z.array(item) });
