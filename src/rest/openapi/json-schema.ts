import { z } from 'zod';
import { toSnake } from '../case.js';

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

/**
 * A request schema as a client sends it (`io: 'input'`: defaults make fields optional, preprocessed
 * whole numbers show the number they become). Transforms have no JSON Schema and stay open.
 */
export function inputSchema(schema: z.ZodType): JsonSchema {
  return restSpelling(z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' })) as JsonSchema;
}

/** Every named response schema (responses/common.ts), as components that refer to each other. */
export function outputSchemas(registry: z.core.$ZodRegistry<{ id: string }>): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, {
    io: 'output',
    target: 'draft-2020-12',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  });
  return restSpelling(schemas) as Record<string, JsonSchema>;
}
