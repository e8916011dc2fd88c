import { z } from 'zod';
import { toSnake } from '../../shared/case.js';
import { eventTime } from '../../shared/domain-event.js';

export type JsonSchema = Record<string, unknown>;

/**
 * zod's JSON Schema, in REST's spelling: property names and `required` snake_case (as `snakeKeys`
 * and `camelKeys` convert at the door), without zod's `$schema`/`$id` and the ±2^53 bounds it puts
 * on every integer.
 */
export function restSpelling(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(restSpelling);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    if (key === '$schema' || key === '$id') continue;
    if ((key === 'maximum' || key === 'minimum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value as JsonSchema).map(([name, inner]) => [toSnake(name), restSpelling(inner)]));
    } else if (key === 'required' && Array.isArray(value)) {
      out.required = value.map((name) => toSnake(String(name)));
    } else {
      out[key] = restSpelling(value);
    }
  }
  return out;
}

/** A schema nothing fits: what a JSON request cannot carry (a Date, which only GraphQL's scalar gives). */
const NEVER: JsonSchema = { not: {} };
const isNever = (schema: unknown) => JSON.stringify(schema) === JSON.stringify(NEVER);

/** `anyOf`/`oneOf` without the alternatives JSON cannot carry; a single one left stands alone. */
function withoutNever(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutNever);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonSchema = Object.fromEntries(Object.entries(schema as JsonSchema).map(([key, value]) => [key, withoutNever(value)]));
  for (const key of ['anyOf', 'oneOf']) {
    const options = out[key];
    if (!Array.isArray(options) || !options.some(isNever)) continue;
    const kept = options.filter((option) => !isNever(option));
    delete out[key];
    if (kept.length === 1) Object.assign(out, kept[0]);
    else out[key] = kept;
  }
  return out;
}

const generation = {
  target: 'draft-2020-12',
  // Dates come from GraphQL's scalar only; anything else without a JSON form stays open.
  unrepresentable: ({ zodSchema }: { zodSchema: z.core.$ZodType }) => (zodSchema._zod.def.type === 'date' ? NEVER : 'any'),
  // A discriminated union names its discriminator, as OpenAPI generators read it (snake_case, as REST spells it).
  override: ({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }) => {
    const def = zodSchema._zod.def as { type: string; discriminator?: string };
    if (def.type === 'union' && def.discriminator) jsonSchema.discriminator = { propertyName: toSnake(def.discriminator) };
  },
} as const;

/**
 * A request schema as a client sends it (`io: 'input'`: defaults make fields optional, preprocessed
 * whole numbers show the number they become). Transforms have no JSON Schema and stay open.
 */
export function inputSchema(schema: z.ZodType): JsonSchema {
  return restSpelling(withoutNever(z.toJSONSchema(schema, { ...generation, io: 'input' }))) as JsonSchema;
}

/** What JSON carries of a view's `Date`: the text `Date#toJSON` writes (UTC, milliseconds). */
const DATE_TIME_TEXT: JsonSchema = { ...z.toJSONSchema(z.iso.datetime({ precision: 3 }), { target: 'draft-2020-12' }), $schema: undefined };

/** An answer is JSON: its dates are ISO texts (a request's stay refused, see `generation`). */
const outputGeneration = {
  ...generation,
  unrepresentable: 'any',
  override: (context: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }) => {
    generation.override(context);
    // A described copy of the named `Timestamp` (`timestamp.describe(...)`) refers to it, which says the text already.
    const refers = '$ref' in context.jsonSchema;
    if (context.zodSchema._zod.def.type === 'date' && !refers) Object.assign(context.jsonSchema, DATE_TIME_TEXT);
    // An event's time is that same text on the bus (shared/domain-event.ts): REST names it `Timestamp` as it names every moment.
    if (context.zodSchema === eventTime) {
      for (const key of Object.keys(context.jsonSchema)) delete context.jsonSchema[key];
      context.jsonSchema.$ref = '#/components/schemas/Timestamp';
    }
  },
} as const;

/** Every named response schema (responses/common.ts), as components that refer to each other. */
export function outputSchemas(registry: z.core.$ZodRegistry<{ id: string }>): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, { ...outputGeneration, io: 'output', uri: (id) => `#/components/schemas/${id}` });
  return restSpelling(schemas) as Record<string, JsonSchema>;
}
