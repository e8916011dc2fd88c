import { z } from './validate.js';

/**
 * The field kinds of the services' views (zod schemas, each view's type inferred from its schema).
 * The REST door publishes a view's schema as its response schema (OpenAPI, snake_case) and the
 * GraphQL door makes its object type from the same schema (resolvers/types/object-type.ts), so a
 * field is described once.
 */

/** A row id: a positive whole number (GraphQL `Int`). */
export const id = z.number().int().positive();
/** Money: whole minor units of the base currency (see `GET /api/currency`). */
export const money = z.number().int().min(0);
export const count = z.number().int().min(0);
/**
 * A moment: a `Date` in the services, GraphQL's DateTime scalar, and in REST's JSON the ISO 8601 text in
 * UTC with milliseconds that `Date#toJSON` writes (the OpenAPI document says so: rest/openapi/json-schema.ts).
 */
export const timestamp = z.date();
