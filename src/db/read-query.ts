import pg from 'pg';

/**
 * The statement class of the prepared reads (prepared-statements.ts): `pg`'s own Query, whose rows
 * are made by one function per column list instead of by `pg`'s generic row copy.
 *
 * Why: `pg`'s Result makes each row by copying a template object and storing every column by name,
 * and describes each answer by building that template anew. Those few sites serve every statement of
 * every connection of the process (the ORM, the sign-in throttle's sync, the event bus, the
 * listeners, the probes), so in a server of this size they see more row shapes than V8 keeps fast and
 * run megamorphic: on the REST listing they cost 43-51 µs of server CPU per request, and these 6-9
 * (issue 43, docs/performance.md). A function made for one column list builds its rows from one
 * object literal.
 *
 * Only the row's making changes: the protocol, errors, type parsers (the client's) and the result's
 * other fields are `pg`'s. Relies on `pg`'s Query keeping its result in `_result`/`_results`, as
 * 8.23 does (the version is pinned; every prepared read goes through here, so the suite would see a
 * change).
 */
export class ReadQuery extends pg.Query {
  constructor(statement: ReadStatement) {
    // The text as a string, the name set after: given a config object, `pg` (since 8.23.1) copies it
    // by property descriptors before reading it, which cost 10 µs per REST listing request (issue 43).
    super(statement.text, statement.values);
    const own = this as unknown as { _result: unknown; _results: unknown; types?: TypeSource; name?: string };
    own.name = statement.name;
    own._result = own._results = new ReadResult(statement.text, own.types);
  }
}

/** A prepared read: its text, its values, and its name when PostgreSQL keeps its plan. */
export interface ReadStatement {
  text: string;
  values?: unknown[];
  name?: string;
}

type Parser = (text: string) => unknown;
type RowMaker = (values: (string | null)[], parsers: Parser[]) => Record<string, unknown>;
interface TypeSource {
  getTypeParser(oid: number, format: 'text' | 'binary'): Parser;
}

/** What `pg`'s Result keeps that this class fills (not in @types/pg). */
interface ResultInternals {
  fields: pg.FieldDef[];
  _parsers: Parser[];
  _types?: TypeSource;
  addFields(fields: pg.FieldDef[]): void;
  parseRow(values: (string | null)[]): unknown;
}

const PgResult = pg.Result as unknown as new (rowMode?: string, types?: TypeSource) => ResultInternals;

class ReadResult extends PgResult {
  private maker: RowMaker | null = null;

  constructor(
    private readonly text: string,
    types: TypeSource | undefined,
  ) {
    super(undefined, types);
  }

  override addFields(fields: pg.FieldDef[]): void {
    this.maker = makerFor(this.text, fields);
    if (this.maker === null) return super.addFields(fields);
    this.fields = fields;
    const types: TypeSource = this._types ?? pg.types;
    this._parsers = fields.map((field) => types.getTypeParser(field.dataTypeID, 'text'));
  }

  override parseRow(values: (string | null)[]): unknown {
    return this.maker === null ? super.parseRow(values) : this.maker(values, this._parsers);
  }
}

/**
 * The row function of each statement's columns, made once and kept (by the statement's text, whose
 * hash the string keeps): the prepared reads are a fixed set of statements. Null (`pg`'s own way)
 * for columns this cannot build as a literal: binary ones, a repeated name (`pg` keeps the last),
 * `__proto__`.
 */
const makers = new Map<string, { names: string[]; maker: RowMaker | null }>();

function makerFor(text: string, fields: pg.FieldDef[]): RowMaker | null {
  const known = makers.get(text);
  if (known !== undefined && sameNames(known.names, fields)) return known.maker;
  const names = fields.map((field) => field.name);
  const plain = fields.every((field) => field.format !== 'binary') && new Set(names).size === names.length && !names.includes('__proto__');
  // Names go in as JSON string literals and values only by index: nothing the database sends becomes code.
  const properties = names.map((name, i) => `${JSON.stringify(name)}: v[${i}] === null ? null : p[${i}](v[${i}])`);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- one literal per column list is the point (see the class's comment)
  const maker = plain ? (new Function('v', 'p', `return { ${properties.join(', ')} };`) as RowMaker) : null;
  makers.set(text, { names, maker });
  return maker;
}

/** The same columns in the same order (a statement's columns change only with the schema). */
function sameNames(names: string[], fields: pg.FieldDef[]): boolean {
  if (names.length !== fields.length) return false;
  for (let i = 0; i < names.length; i++) if (names[i] !== fields[i].name || fields[i].format === 'binary') return false;
  return true;
}
