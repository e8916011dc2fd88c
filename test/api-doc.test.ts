import { readFile } from 'node:fs/promises';
import type { GraphQLObjectType } from 'graphql';
import { graphqlSchema } from '../src/resolvers/schema.js';
import { ALL_EVENT_TYPES, EventTypes } from '../src/services/events/event-types.js';
import { ERROR_STATUS } from '../src/error-codes.js';
import { EVENT_PAYLOADS, type EventName } from '../src/shared/domain-event.js';

/**
 * docs/api.md is hand-written; these checks keep the parts of it that name things in the code true:
 * the event table (the one place that lists every event with its payload) and the table of GraphQL
 * entry points.
 */
const apiDoc = () => readFile(new URL('../docs/api.md', import.meta.url), 'utf8');

/** The rows of the markdown table whose header row starts with `header`, as cells. */
function tableRows(doc: string, header: string): string[][] {
  const lines = doc.split('\n');
  const start = lines.findIndex((line) => line.startsWith(header));
  if (start < 0) throw new Error(`docs/api.md has no table starting with ${header}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

const backticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

describe('docs/api.md', () => {
  it('lists every event type of the code, and only those, with its GraphQL name and a payload', async () => {
    const rows = tableRows(await apiDoc(), '| `type` (GraphQL)');
    const documented = rows.map(([graphql, name, , payload]) => ({ graphql: backticked(graphql)[0], name: backticked(name)[0], payload }));
    expect(documented.map((e) => e.name).sort()).toEqual([...ALL_EVENT_TYPES].sort());
    expect(Object.fromEntries(documented.map((e) => [e.graphql, e.name]))).toEqual(EventTypes);
    for (const event of documented) expect(event.payload).toMatch(/^`\{\w+/);
    // Each payload's fields are those of its one shape in the code (`?`: optional there).
    for (const event of documented) {
      const fields = backticked(event.payload)[0].replace(/[{}\s]/g, '').split(',');
      const shape = EVENT_PAYLOADS[event.name as EventName].shape;
      const declared = Object.entries(shape).map(([key, type]) => (type.safeParse(undefined).success ? `${key}?` : key));
      expect({ event: event.name, fields }).toEqual({ event: event.name, fields: declared });
    }
  });

  it('lists every error code the service answers with its status', async () => {
    const rows = tableRows(await apiDoc(), '| Code | Status | When |');
    const documented = Object.fromEntries(rows.map(([code, status]) => [backticked(code)[0], Number(status)]));
    const missing = Object.entries(ERROR_STATUS).filter(([code, status]) => documented[code] !== status);
    expect(missing).toEqual([]);
  });

  it("names exactly the schema's root fields among the GraphQL entry points", async () => {
    const rows = tableRows(await apiDoc(), '| GraphQL fields |');
    const documented = rows.flatMap(([fields]) => backticked(fields));
    const schema = await graphqlSchema();
    const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()] as GraphQLObjectType[];
    const fields = roots.flatMap((root) => Object.keys(root.getFields()));
    expect([...documented].sort()).toEqual([...fields].sort());
  });
});
