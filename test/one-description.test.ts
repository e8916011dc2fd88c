import { readFileSync } from 'node:fs';
import { buildSchema, getNamedType, isEnumType, isUnionType, isListType, isNonNullType, isObjectType, isScalarType, type GraphQLOutputType } from 'graphql';
import { buildOpenApiDocument } from '../src/rest/openapi/document.js';
import { eventSchemaName } from '../src/rest/responses/events.js';
import { EVENT_ENVELOPES } from '../src/shared/domain-event.js';

/**
 * A resource is described once. Where a service's view is a zod schema (services/*), REST publishes
 * that schema and GraphQL makes its type from it (resolvers/types/object-type.ts). Every other
 * resource both doors name alike is held here: each REST response schema and the GraphQL object
 * type of the same name have the same fields, each as required (non-null) and of the same kind on
 * both. What one door has more is listed below with its reason; anything else fails.
 */
type Json = Record<string, any>;

/** Fields only GraphQL has: resolved on demand from another service (REST answers them elsewhere or embeds less). */
const GRAPHQL_ONLY: Record<string, string[]> = {
  // A GraphQL page says whether another follows; REST's pages carry the total only.
  '*Page': ['hasNextPage'],
  OrderItem: ['product'],
  Category: ['children'],
  Shop: ['myCoupons'],
  Product: ['brand', 'category', 'categoryPath', 'freightTemplateId', 'rating', 'skus'],
};
/** Fields only REST has. */
const REST_ONLY: Record<string, string[]> = {
  // REST's ShopSummary is a shop in a listing (with its logo); GraphQL's is the three-field reference REST calls ShopRef.
  ShopSummary: ['logoUrl'],
  // REST answers an endpoint's secret in the same schema, only on creation and rotation; GraphQL has WebhookEndpointWithSecret.
  WebhookEndpoint: ['secret'],
};
/** One shape named differently by the two doors (REST's name: GraphQL's). */
const KIND_ALIASES: Record<string, string> = { ShopRef: 'ShopSummary', Group: 'BuyingGroup' };
/** Fields the two doors answer differently on purpose. */
const DIFFERENT_ON_PURPOSE: Record<string, string> = {
  // GraphQL resolves the whole shop (its profile, coupons) where REST embeds the listing's summary.
  'Product.shop': 'GraphQL resolves the shop',
  'FavoriteShop.shop': "GraphQL's FavoriteShopSummary is REST's ShopSummary (GraphQL's ShopSummary is the three-field reference)",
  // REST omits `favorited` for callers who are not customers; GraphQL answers false to them (docs/api.md).
  'Shop.favorited': 'absent in REST, false in GraphQL, for callers who are not customers',
  'Product.favorited': 'absent in REST, false in GraphQL, for callers who are not customers',
};

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const doc = buildOpenApiDocument() as Json;
const components = doc.components.schemas as Record<string, Json>;
const graphql = buildSchema(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8'));

/** A REST property's kind, read as GraphQL would spell it. */
function restKind(schema: Json): string {
  const alternatives = schema.anyOf as Json[] | undefined;
  if (alternatives) return restKind(alternatives.find((a) => a.type !== 'null')!);
  if (Array.isArray(schema.type)) return restKind({ ...schema, type: (schema.type as string[]).find((t) => t !== 'null') });
  if (schema.$ref) {
    const name = String(schema.$ref).split('/').pop()!;
    if (name === 'Timestamp') return 'DateTime';
    return KIND_ALIASES[name] ?? name;
  }
  if (schema.type === 'array') return `[${restKind(schema.items as Json)}]`;
  if (schema.enum) return 'enum';
  if (schema.type === 'integer') return 'Int';
  if (schema.type === 'number') return 'Float';
  if (schema.type === 'string') return 'String';
  if (schema.type === 'boolean') return 'Boolean';
  if (schema.type === 'object') return 'object';
  return JSON.stringify(schema);
}

function graphqlKind(type: GraphQLOutputType): string {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return `[${graphqlKind(inner.ofType)}]`;
  const named = getNamedType(inner);
  if (isEnumType(named)) return 'enum';
  if (isScalarType(named)) return named.name === 'DateTimeISO' ? 'DateTime' : named.name;
  // An object REST writes inline has no name there.
  return isObjectType(named) ? named.name : 'object';
}

function differences(name: string, rest: Json, type: ReturnType<typeof graphql.getType>): string[] {
  if (!isObjectType(type)) return [];
  const fields = type.getFields();
  // A property REST always sends but may send as null is GraphQL's nullable field.
  const sendsNull = (schema: Json) => (schema.anyOf as Json[] | undefined)?.some((a) => a.type === 'null') || (Array.isArray(schema.type) && schema.type.includes('null'));
  const required = new Set(
    Object.entries((rest.properties ?? {}) as Record<string, Json>)
      .filter(([key, schema]) => ((rest.required as string[] | undefined) ?? []).includes(key) && !sendsNull(schema))
      .map(([key]) => camel(key)),
  );
  const properties = Object.fromEntries(Object.entries((rest.properties ?? {}) as Record<string, Json>).map(([key, value]) => [camel(key), value]));
  const graphqlOnly = [...(name.endsWith('Page') ? GRAPHQL_ONLY['*Page'] : []), ...(GRAPHQL_ONLY[name] ?? [])];
  const found: string[] = [];
  for (const field of Object.keys(fields)) if (!(field in properties) && !graphqlOnly.includes(field)) found.push(`${name}.${field}: only in GraphQL`);
  for (const [field, schema] of Object.entries(properties)) {
    if (`${name}.${field}` in DIFFERENT_ON_PURPOSE) continue;
    if (!(field in fields)) {
      if (!(REST_ONLY[name] ?? []).includes(field)) found.push(`${name}.${field}: only in REST`);
      continue;
    }
    const graphqlType = fields[field].type;
    if (isNonNullType(graphqlType) !== required.has(field)) found.push(`${name}.${field}: ${required.has(field) ? 'required in REST, nullable in GraphQL' : 'optional in REST, non-null in GraphQL'}`);
    // Text is text: an enum on one side may be plain text on the other, and GraphQL's ID is a text.
    const kinds = [restKind(schema), graphqlKind(graphqlType)].map((kind) => kind.replace(/\benum\b|\bID\b/g, 'String'));
    // An object REST writes inline is a named GraphQL type.
    const same = kinds[0] === kinds[1] || (kinds[0].includes('object') && !/Int|String|Boolean|DateTime|Float/.test(kinds[1]));
    if (!same) found.push(`${name}.${field}: ${kinds[0]} in REST, ${kinds[1]} in GraphQL`);
  }
  return found;
}

it('holds every resource both doors name alike to one shape: fields, nullability and kinds', () => {
  const compared = Object.entries(components).filter(([name, schema]) => schema.properties && isObjectType(graphql.getType(name)));
  expect(compared.length).toBeGreaterThan(90);
  expect(compared.flatMap(([name, schema]) => differences(name, schema, graphql.getType(name)))).toEqual([]);
});

/**
 * An event is described once, by its type's envelope (EVENT_ENVELOPES, shared/domain-event.ts), which REST's feed and
 * webhooks publish as `<Type>Event`. GraphQL spells it as one `DomainEvent` whose `payload` is the union of one
 * `<Type>EventPayload` per type, written in resolvers/types/event.types.ts (its id an `ID`, its type the `EventType`
 * enum, a payment's failure status text): held here to each envelope, its fields and its payload's.
 */
function eventDifferences(type: string, envelope: Json): string[] {
  const payloadType = `${eventSchemaName(type)}Payload`;
  if (!isObjectType(graphql.getType(payloadType))) return [`${type}: no GraphQL type ${payloadType}`];
  return [...differences('DomainEvent', envelope, graphql.getType('DomainEvent')), ...differences(payloadType, envelope.properties.payload as Json, graphql.getType(payloadType))];
}

it('holds every event type GraphQL serves to its one envelope: the envelope fields, and its payload field by field', () => {
  const types = Object.keys(EVENT_ENVELOPES);
  expect(types.length).toBeGreaterThan(25);
  expect(types.flatMap((type) => eventDifferences(type, components[eventSchemaName(type)]))).toEqual([]);
  // Each envelope is one of the feed's events, and each GraphQL payload type one of the union's.
  expect((components.Event.anyOf as Json[]).map((e) => String(e.$ref).split('/').pop()).sort()).toEqual(types.map(eventSchemaName).sort());
  const union = graphql.getType('EventPayload');
  expect((isUnionType(union) ? union.getTypes() : []).map((t) => t.name).sort()).toEqual(types.map((type) => `${eventSchemaName(type)}Payload`).sort());
});

it('notices an event whose payload or envelope drifts from GraphQL', () => {
  const placed = components.OrderPlacedEvent;
  const payload = placed.properties.payload as Json;
  const drifted = {
    ...placed,
    properties: { ...placed.properties, customer_id: { type: 'integer' }, payload: { ...payload, properties: { ...payload.properties, total: { type: 'string' }, note: { type: 'string' } } } },
  };
  expect(eventDifferences('order.placed', drifted)).toEqual([
    'DomainEvent.customerId: required in REST, nullable in GraphQL',
    'OrderPlacedEventPayload.total: String in REST, Int in GraphQL',
    'OrderPlacedEventPayload.note: only in REST',
  ]);
});

it('notices a field one door lacks, a nullability or a kind that differs', () => {
  const order = components.Order;
  const type = graphql.getType('Order');
  const drifted = { ...order, properties: { ...order.properties, note: { type: 'string' }, total: { type: 'string' } }, required: (order.required as string[]).filter((f) => f !== 'status') };
  expect(differences('Order', drifted, type)).toEqual(['Order.status: optional in REST, non-null in GraphQL', 'Order.total: String in REST, Int in GraphQL', 'Order.note: only in REST']);
});

it('makes GraphQL types only from what it can name: an inline object or a kind without a GraphQL type is refused at start', async () => {
  const { objectType } = await import('../src/resolvers/types/object-type.js');
  const { z } = await import('zod');
  expect(() => objectType('Unnamed', z.strictObject({ inner: z.strictObject({ a: z.string() }) }))).toThrow('Unnamed.inner: make the object type of its schema first (objectType), so that it has a name');
  expect(() => objectType('Unknown', z.strictObject({ colour: z.enum(['mauve', 'teal']) }))).toThrow('Unknown.colour: no single GraphQL enum is registered for its values (enums.ts)');
  expect(() => objectType('Mapped', z.strictObject({ counts: z.record(z.string(), z.number()) }))).toThrow('Mapped.counts: a record has no GraphQL type here');
});
