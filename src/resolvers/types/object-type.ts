import { Field, Float, Int, ObjectType } from 'type-graphql';

/** What a field decorator is given for its type (as type-graphql's own `ReturnTypeFunc`, which it does not export). */
type TypeValue = object | symbol;
type ReturnTypeFunc = () => TypeValue | TypeValue[];
import type { z } from '../../shared/validate.js';
import { enumOfSchema, enumOfValues } from './enums.js';

/**
 * GraphQL object types made from the services' view schemas (zod), so a view is described once: a
 * field added to the schema is in the REST answer's schema and in the GraphQL type without another
 * edit. Each field's GraphQL type follows from its zod kind: a whole number is `Int`, another number
 * `Float`, a text `String`, a flag `Boolean`, a `Date` the DateTime scalar, a `z.enum` the enum
 * registered for the same values (or the one enums.ts names for that schema, where two enums share
 * the values), an object the type already made from that schema, a list a list; optional or nullable
 * is nullable. A zod description is the field's description.
 * Types are made at start-up, before the schema is built; nothing of it runs per request.
 */
type Made = new () => object;
type Prototype = Record<string, unknown>;

/** The types made so far, by the schema they were made from: a field whose schema is one of them refers to it. */
const made = new Map<z.ZodType, Made>();

export function objectType<S extends z.ZodObject>(name: string, schema: S, options: { description?: string } = {}): new () => z.infer<S> {
  // A named class, so that stack traces and type-graphql's messages say which type.
  const type = { [name]: class {} }[name] as Made;
  for (const [key, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
    const { graphqlType, nullable, description } = fieldOf(name, key, field);
    Field(graphqlType, { nullable, description })(type.prototype as Prototype, key);
  }
  ObjectType(name, { description: options.description ?? schema.description })(type);
  made.set(schema, type);
  return type as new () => z.infer<S>;
}

interface GraphqlField {
  graphqlType: ReturnTypeFunc;
  nullable: boolean;
  description: string | undefined;
}

function fieldOf(typeName: string, key: string, schema: z.ZodType): GraphqlField {
  let description = schema.description;
  let nullable = false;
  let inner = schema;
  for (;;) {
    const def = inner._zod.def as { type: string; innerType?: z.ZodType };
    if ((def.type === 'optional' || def.type === 'nullable') && def.innerType) {
      nullable = true;
      inner = def.innerType;
      description ??= inner.description;
    } else break;
  }
  return { graphqlType: typeOf(`${typeName}.${key}`, inner), nullable, description };
}

/** The type made from this schema, or from the one it was derived from (`.describe()` makes a copy that knows its parent). */
function madeFrom(schema: z.ZodType | undefined): Made | undefined {
  for (let at = schema; at; at = (at._zod as { parent?: z.ZodType }).parent) {
    const type = made.get(at);
    if (type) return type;
  }
  return undefined;
}

function typeOf(path: string, schema: z.ZodType): ReturnTypeFunc {
  const def = schema._zod.def as { type: string; element?: z.ZodType; entries?: Record<string, string> };
  const known = madeFrom(schema);
  if (known) return () => known;
  switch (def.type) {
    case 'string':
      return () => String;
    case 'boolean':
      return () => Boolean;
    case 'date':
      return () => Date;
    case 'number':
      return (schema as z.ZodNumber).isInt ? () => Int : () => Float;
    case 'enum': {
      const found = enumOfSchema(schema) ?? enumOfValues(Object.values(def.entries ?? {}));
      if (found === undefined || found === 'ambiguous') throw new Error(`${path}: no single GraphQL enum is registered for its values (enums.ts)`);
      return () => found;
    }
    case 'array': {
      const element = typeOf(path, def.element!);
      return () => [element()] as TypeValue[];
    }
    case 'object':
      throw new Error(`${path}: make the object type of its schema first (objectType), so that it has a name`);
    default:
      throw new Error(`${path}: a ${def.type} has no GraphQL type here`);
  }
}
