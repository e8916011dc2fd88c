import { readFile } from 'node:fs/promises';
import { buildSchema } from 'graphql';
import { graphqlSchema, schemaSDL } from '../src/resolvers/schema.js';
import { breakingChanges, unrecordedBreaks } from '../src/cli/schema-compat.js';

const committedSchema = () => readFile(new URL('../schema.graphql', import.meta.url), 'utf8');
const baselineSchema = () => readFile(new URL('../docs/schema-baseline.graphql', import.meta.url), 'utf8');
const recordedChanges = () => readFile(new URL('../docs/schema-changes.md', import.meta.url), 'utf8');

describe('committed GraphQL schema', () => {
  it('has no unmarked breaking change from the code: deprecate first, or record the break (`npm run schema:print -- --accept-breaking "why"`)', async () => {
    const breaks = await breakingChanges(await committedSchema(), await graphqlSchema());
    expect(breaks.map((b) => b.message)).toEqual([]);
  });

  it('has every break since the baseline schema (59d0a31) recorded in docs/schema-changes.md', async () => {
    expect(await unrecordedBreaks(await baselineSchema(), await graphqlSchema(), await recordedChanges())).toEqual([]);
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

  it('names a removed type as breaking, input types included (a client names them in its variables)', async () => {
    const withInput = `${committed} input OrderFilter { status: OrderStatus } type Mutation { find(filter: OrderFilter): [Order!]! }`;
    const next = buildSchema(`${committed} input OrderQuery { status: OrderStatus } type Mutation { find(filter: OrderQuery): [Order!]! }`);
    const breaks = await breakingChanges(withInput, next);
    expect(breaks.map((b) => b.message)).toContain("Type 'OrderFilter' was removed");
  });

  it('fails on a break since the baseline that docs/schema-changes.md does not record, and passes once it does', async () => {
    const next = buildSchema(`type Query { order(id: Int!): Order orders: [Order!]! }
      type Order { id: Int! total: Int! note: String @deprecated(reason: "Use remark") remark: String status: OrderStatus! }
      enum OrderStatus { PAID }`);
    const record = "## 2026-12-01: the first break\n\n- Field 'Order.total' changed type from 'Int!' to 'Int'\n";
    expect(await unrecordedBreaks(committed, next, record)).toEqual(["Enum value 'SHIPPED' was removed from enum 'OrderStatus'"]);
    expect(await unrecordedBreaks(committed, next, `${record}\n## 2026-12-02: the second\n\n- Enum value 'SHIPPED' was removed from enum 'OrderStatus'\n`)).toEqual([]);
  });

  it('lets a field go once it was deprecated, and lets anything be added', async () => {
    const next = buildSchema(`type Query { order(id: Int!): Order orders: [Order!]! shops: [String!]! }
      type Order { id: Int! total: Int! remark: String status: OrderStatus! paidAt: String }
      enum OrderStatus { PAID SHIPPED CANCELLED }`);
    expect(await breakingChanges(committed, next)).toEqual([]);
  });
});
