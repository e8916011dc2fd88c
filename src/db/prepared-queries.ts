import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, sql, type Compilable, type Expression, type Kysely, type OperationNode, type OperationNodeSource, type RawBuilder } from 'kysely';
import { KYSELY_OPTIONS, type Database } from './typed-sql.js';
import type { z } from 'zod';
import { queryRows } from './prepared-statements.js';
import { measuring, statementTimer } from '../metrics.js';

/**
 * Hot statements written as Kysely builders, typed from the entities' `Database`: a row is what the
 * builder selects (`InferResult`), never a type asserted by hand. Each is compiled once per shape and
 * run as a named prepared statement (planned once per connection, as `queryRows` explains), so a
 * request pays neither for building nor for compiling: both cost more than some of these statements
 * take to run (a listing's builder and the ORM's naming plugin, measured at 0.4-0.6 ms a compile).
 *
 * The builder gets its shape (what decides the statement's text: which filters, which order) and
 * stand-ins for its values. A stand-in compiles to a placeholder (`$n`) and is replaced by the run's
 * own value; so the builder cannot let a value change the text, and one compiled text per shape is
 * exact. Write a constant the plan depends on (a partial index's `status = 'published'`, a `limit`)
 * as a literal (`sql.lit`, `eb.lit`), not as a value.
 *
 * A timestamp arrives as PostgreSQL's text (the pool's type parsers leave it; `toDate` reads it):
 * select it through `asText` so its type says so.
 *
 * The rows are not renamed on their way back (the ORM's result plugin guesses names by matching any
 * column of any table in the query, and costs more than the statement): so every column a statement
 * returns from a table carries an alias, its name in the row type. `preparedQuery` refuses, when it
 * compiles, a statement that selects a table's column without one (`unnamedColumns`).
 */

/** A run's value inside the compiled text: replaced by the value named `key` at each run. */
class StandIn {
  constructor(readonly key: string) {}
}

/** What the builder sees of the values: stand-ins typed as the values they stand for. */
export type StandIns<V> = { readonly [K in keyof V]: V[K] };

/** The builder's query builder: tables by entity name, columns by property name. */
export type QueryBuilder = Kysely<Database>;

interface Compiled {
  sql: string;
  keys: string[];
}

/** Every prepared query of the process, by name (for `npm run sql:print`). */
export const PREPARED_QUERIES = new Map<string, PreparedQuery<never, never, unknown>>();

export interface PreparedQuery<Shape, Values, Row> {
  readonly name: string;
  /** Shapes the committed SQL snapshot shows (sql/*.sql), as Immich's `@GenerateSql` does. */
  readonly examples: readonly Shape[];
  /** The statement's text for a shape (compiled once per process). */
  textOf(em: EntityManager, shape: Shape): string;
  /** The names of its values, in the order of its placeholders (`$1`, `$2`, ...). */
  valuesOf(em: EntityManager, shape: Shape): string[];
  /** Runs it; `replan` plans it with its values on each run (see `queryRows`). */
  run(em: EntityManager, shape: Shape, values: Values, options?: { replan?: boolean }): Promise<Row[]>;
}

/**
 * A hot statement: `build` makes it from its shape and the stand-ins of its values. `examples`: the
 * shapes its snapshot shows.
 */
export function preparedQuery<Shape, Values extends object, Row>(spec: {
  name: string;
  build: (db: QueryBuilder, shape: Shape, values: StandIns<Values>) => Compilable<Row> & OperationNodeSource;
  examples: readonly Shape[];
  /** The shape's part of the cache key (default: the shape as JSON). */
  keyOf?: (shape: Shape) => string;
}): PreparedQuery<Shape, Values, Row> {
  const compiled = new Map<string, Compiled>();
  const keyOf = spec.keyOf ?? ((shape: Shape) => JSON.stringify(shape) ?? '');

  function compile(em: EntityManager, shape: Shape): Compiled {
    const key = keyOf(shape);
    let found = compiled.get(key);
    if (!found) {
      const standIns = new Proxy({} as StandIns<Values>, { get: (_target, name) => new StandIn(String(name)) });
      // No value conversion while compiling: the values are stand-ins, converted by no one.
      const db = em.getKysely<Database>({ tableNamingStrategy: KYSELY_OPTIONS.tableNamingStrategy, columnNamingStrategy: KYSELY_OPTIONS.columnNamingStrategy });
      const built = spec.build(db, shape, standIns);
      const unnamed = unnamedColumns(built.toOperationNode());
      if (unnamed.length > 0) throw new Error(`${spec.name}: alias every column a row returns (${unnamed.join(', ')})`);
      const query = built.compile();
      const keys = query.parameters.map((p) => {
        if (!(p instanceof StandIn)) throw new Error(`${spec.name}: a value reached the statement's text; pass it through the stand-ins, or as a literal`);
        return p.key;
      });
      found = { sql: query.sql, keys };
      compiled.set(key, found);
    }
    return found;
  }

  async function execute(em: EntityManager, shape: Shape, values: Values, options: { replan?: boolean }): Promise<Row[]> {
    const { sql, keys } = compile(em, shape);
    const params = keys.map((key) => values[key as keyof Values]);
    if (em.isInTransaction()) {
      const result = await em.getKysely().executeQuery<Row>(CompiledQuery.raw(sql, params));
      return result.rows;
    }
    return queryRows<Row & object>(em, sql, params, { ...options, numbered: true });
  }

  const query: PreparedQuery<Shape, Values, Row> = {
    name: spec.name,
    examples: spec.examples,
    textOf: (em, shape) => compile(em, shape).sql,
    valuesOf: (em, shape) => compile(em, shape).keys,
    run: (em, shape, values, options = {}) => (measuring ? timed(spec.name, execute(em, shape, values, options)) : execute(em, shape, values, options)),
  };
  PREPARED_QUERIES.set(spec.name, query as unknown as PreparedQuery<never, never, unknown>);
  return query;
}

/**
 * A named statement's time from the call to its rows (connection wait included), for
 * `mallfront_db_statement_duration_seconds`: its label is the statement's name, one of those defined
 * in the code (PREPARED_QUERIES, FIXED_STATEMENTS), a bounded set. Only called while metrics are served.
 */
async function timed<Row>(name: string, running: Promise<Row[]>): Promise<Row[]> {
  const started = performance.now();
  try {
    return await running;
  } finally {
    statementTimer(name).observe((performance.now() - started) / 1000);
  }
}

/** A node as a plain record, to walk whatever kind it is. */
type AnyNode = OperationNode & Record<string, unknown>;

const isNode = (value: unknown): value is AnyNode => typeof value === 'object' && value !== null && 'kind' in value;

/** Names a statement's FROM and WITH give to derived tables (CTEs, subqueries, `unnest`): their columns are already named. */
function derivedNames(node: AnyNode, outer: ReadonlySet<string>): Set<string> {
  const names = new Set<string>(outer);
  const withNode = node.with as AnyNode | undefined;
  for (const cte of (withNode?.expressions as AnyNode[] | undefined) ?? []) {
    names.add(identifier(((cte.name as AnyNode).table as AnyNode).table as AnyNode));
  }
  const froms = [...(((node.from as AnyNode | undefined)?.froms as AnyNode[] | undefined) ?? []), ...(((node.joins as AnyNode[] | undefined) ?? []).map((j) => j.table as AnyNode))];
  for (const from of froms) {
    if (from.kind !== 'AliasNode') continue;
    // A subquery, `unnest(...)`, or a CTE under another name (`matched as m`).
    const inner = from.node as AnyNode;
    if (inner.kind !== 'TableNode' || names.has(identifier(inner))) names.add(identifier(from.alias as AnyNode));
  }
  return names;
}

function identifier(node: AnyNode): string {
  if (node.kind === 'IdentifierNode') return String(node.name);
  if (node.kind === 'SchemableIdentifierNode') return identifier(node.identifier as AnyNode);
  if (node.kind === 'TableNode') return identifier(node.table as AnyNode);
  // A derived table named with its columns (`sql\`r(id, n)\``): the name before the parenthesis.
  if (node.kind === 'RawNode') return /^\s*"?(\w+)/.exec((node.sqlFragments as string[])[0] ?? '')?.[1] ?? '';
  return '';
}

/**
 * The columns a statement returns straight from a table, without an alias (see above),
 * in its own selections or RETURNING and in those of the CTEs and subqueries it selects from.
 */
function unnamedColumns(node: OperationNode, outer: ReadonlySet<string> = new Set()): string[] {
  const root = node as AnyNode;
  // A CTE of an enclosing statement is derived here too.
  const derived = derivedNames(root, outer);
  const found: string[] = [];
  const nested = [
    ...(((root.with as AnyNode | undefined)?.expressions as AnyNode[] | undefined) ?? []).map((cte) => cte.expression as AnyNode),
    ...((((root.from as AnyNode | undefined)?.froms as AnyNode[] | undefined) ?? []).concat(((root.joins as AnyNode[] | undefined) ?? []).map((j) => j.table as AnyNode)))
      .filter((f) => f.kind === 'AliasNode')
      .map((f) => f.node as AnyNode),
  ];
  for (const inner of nested) if (['SelectQueryNode', 'InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode'].includes(inner.kind)) found.push(...unnamedColumns(inner, derived));
  const selections = (root.selections as AnyNode[] | undefined) ?? ((root.returning as AnyNode | undefined)?.selections as AnyNode[] | undefined) ?? [];
  for (const selection of selections.map((s) => s.selection as AnyNode)) {
    if (selection.kind === 'AliasNode') continue;
    if (selection.kind === 'ReferenceNode') {
      const table = selection.table ? identifier(selection.table as AnyNode) : '';
      if (derived.has(table)) continue;
      const column = selection.column as AnyNode;
      found.push(`${table ? `${table}.` : ''}${column.kind === 'SelectAllNode' ? '*' : identifier(column.column as AnyNode)}`);
    } else if (selection.kind === 'SelectAllNode') {
      found.push('*');
    } else if (isNode(selection)) {
      found.push(selection.kind);
    }
  }
  return found;
}

/**
 * A timestamp as the pool returns it: PostgreSQL's text (its type parsers leave timestamps to the
 * ORM's hydration, which these statements do not go through); `toDate` reads it.
 */
export function asText<T extends Date | null>(value: Expression<T>): RawBuilder<T extends Date ? string : string | null> {
  return sql`${value}`;
}

/**
 * A hot statement kept as SQL text (it says in SQL what a builder would only obscure: checkout's one
 * write statement), in a repository file of its domain. Its rows are declared by a zod schema: the
 * row type is the schema's, and `test/sql-rows.test.ts` runs the statement on the migrated schema
 * and holds every row it returns (column names, types, nullability, the JSON inside) to the schema.
 * Nothing parses the rows at run time. The text is complete: nothing is spliced into it.
 */
export interface FixedStatement<Row> {
  readonly name: string;
  readonly text: string;
  /** The rows' schema (checked by the test, not at run time). */
  readonly row: z.ZodType<Row>;
  run(em: EntityManager, params: readonly unknown[]): Promise<Row[]>;
}

/** Every fixed statement of the process, by name (for `npm run sql:print` and the row test). */
export const FIXED_STATEMENTS = new Map<string, FixedStatement<unknown>>();

/** A fixed statement: `?` placeholders, run as a prepared statement (inside a transaction, on its connection). */
export function fixedStatement<Row extends object>(spec: { name: string; text: string; row: z.ZodType<Row> }): FixedStatement<Row> {
  const statement: FixedStatement<Row> = {
    ...spec,
    run: (em, params) => (measuring ? timed(spec.name, queryRows<Row>(em, spec.text, params)) : queryRows<Row>(em, spec.text, params)),
  };
  FIXED_STATEMENTS.set(spec.name, statement);
  return statement;
}
