import { readFile } from 'node:fs/promises';
import { buildSchema } from 'graphql';
import { graphqlSchema, schemaSDL } from '../src/resolvers/schema.js';
import { breakingChanges } from '../src/cli/schema-compat.js';

const committedSchema = () => readFile(new URL('../schema.graphql', import.meta.url), 'utf8');

describe('committed GraphQL schema', () => {
  it('has no unmarked breaking change from the code: deprecate first, or record the break (`npm run schema:print -- --accept-breaking "why"`)', async () => {
    const breaks = await breakingChanges(await committedSchema(), await graphqlSchema());
    expect(breaks.map((b) => b.message)).toEqual([]);
  });

  it('equals the schema the code builds (run `npm run schema:print` after changing resolvers)', async () => {
    expect(await committedSchema()).toBe(await schemaSDL());
  });
});

describe('the breaking-change check', () => {
  const committed = `type Query { order(id: Int!): Order  orders: [Order!]! }
    type Order { id: Int! total: Int! note: String @deprecated(reason: "Use remark") remark: String status: OrderStatus! }
    enum OrderStatus { PAID SHIPPED }`;

  it('names a removed field and a removed enum value as breaking (a lookup made non-null is not: clients only get less null)', async () => {
    const next = buildSchema(`type Query { order(id: Int!): Order! orders: [Order!]! }
      type Order { id: Int! note: String @deprecated(reason: "Use remark") remark: String status: OrderStatus! }
      enum OrderStatus { PAID }`);
    const breaks = await breakingChanges(committed, next);
    expect(breaks.map((b) => b.path).sort()).toEqual(['Order.total', 'OrderStatus.SHIPPED']);
  });

  it('lets a field go once it was deprecated, and lets anything be added', async () => {
    const next = buildSchema(`type Query { order(id: Int!): Order orders: [Order!]! shops: [String!]! }
      type Order { id: Int! total: Int! remark: String status: OrderStatus! paidAt: String }
      enum OrderStatus { PAID SHIPPED CANCELLED }`);
    expect(await breakingChanges(committed, next)).toEqual([]);
  });
});
