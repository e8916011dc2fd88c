import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openOrm, type MikroORM } from '../src/db/orm.js';
import { ensureTemplate } from './support/template.js';
import { adminQuery, databaseUrl, PREFIX, TEMPLATE_DB } from './support/databases.js';

/**
 * Every object of the schema, one line each, in a form that does not depend on how it was created
 * (column order, whitespace of function bodies). Tables of the migrator itself are left out.
 */
const CATALOG = `
  select 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
         || case when a.attnotnull then ' not null' else '' end || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') as line
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
   where n.nspname = 'public' and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
  union all
  select 'constraint ' || c.conrelid::regclass || '.' || c.conname || ' ' || pg_get_constraintdef(c.oid)
    from pg_constraint c join pg_namespace n on n.oid = c.connamespace
   where n.nspname = 'public'
  union all
  select 'index ' || indexdef from pg_indexes where schemaname = 'public'
  union all
  select 'trigger ' || pg_get_triggerdef(t.oid)
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
   where n.nspname = 'public' and not t.tgisinternal
  union all
  select 'function ' || regexp_replace(pg_get_functiondef(p.oid), '\\s+', ' ', 'g')
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
   where n.nspname = 'public'
     and not exists (select 1 from pg_depend d where d.objid = p.oid and d.classid = 'pg_proc'::regclass and d.deptype = 'e')
  union all
  select 'sequence ' || c.relname
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where n.nspname = 'public' and c.relkind = 'S'
  order by 1`;

/**
 * What the migrations create and MikroORM cannot describe, so the entities do not: the invoice number
 * sequence, and triggers on TRUNCATE (MikroORM reads triggers from information_schema, which lists
 * only INSERT, UPDATE and DELETE ones). The btree_gist and pg_trgm extensions and the trigger functions
 * cannot be described either; the entities' database gets them from the migrated one before the entities
 * create their tables, as their triggers and exclusion constraint need them.
 */
const OUTSIDE_ENTITIES = [
  'sequence invoice_no_seq',
  'sequence ledger_transfer_seq',
  'trigger CREATE TRIGGER audit_entry_no_truncate BEFORE TRUNCATE ON public.audit_entry FOR EACH STATEMENT EXECUTE FUNCTION audit_entry_append_only()',
  'trigger CREATE TRIGGER ledger_entry_no_truncate BEFORE TRUNCATE ON public.ledger_entry FOR EACH STATEMENT EXECUTE FUNCTION ledger_entry_append_only()',
  'trigger CREATE TRIGGER order_item_sales_version_truncate AFTER TRUNCATE ON public.order_item FOR EACH STATEMENT EXECUTE FUNCTION sales_version_bump()',
  'trigger CREATE TRIGGER product_catalog_version_truncate AFTER TRUNCATE ON public.product FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_bump()',
];

async function withClient<T>(dbName: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl(dbName) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const catalogOf = (dbName: string) =>
  withClient(dbName, async (c) =>
    (await c.query<{ line: string }>(CATALOG)).rows.map((r) => r.line).filter((line) => !/\bmikro_orm_migrations/.test(line)),
  );

describe('entities', () => {
  const suffix = randomBytes(4).toString('hex');
  const migratedDb = `${PREFIX}_entmig_${suffix}`;
  const entitiesDb = `${PREFIX}_entgen_${suffix}`;
  const orms: MikroORM[] = [];

  beforeAll(async () => {
    await ensureTemplate();
    await adminQuery(`create database ${migratedDb} template ${TEMPLATE_DB}`);
    await adminQuery(`create database ${entitiesDb}`);
  });
  afterAll(async () => {
    await Promise.all(orms.map((o) => o.close()));
    await adminQuery(`drop database if exists ${migratedDb} with (force)`);
    await adminQuery(`drop database if exists ${entitiesDb} with (force)`);
  });

  it('describe a migrated database exactly: the schema diff MikroORM computes is empty', async () => {
    const orm = await openOrm({ clientUrl: databaseUrl(migratedDb), poolSize: 1 });
    orms.push(orm);
    const diff = await orm.schema.getUpdateSchemaSQL({ wrap: false });
    expect(diff).toBe('');
  });

  // The comparator matches some objects by name only (raw index definitions, raw triggers, checks on
  // enum columns): comparing catalogs checks their definitions too.
  it('create the same tables, columns, constraints, indexes, triggers and functions as the migrations, but for what MikroORM cannot describe', async () => {
    const triggerFunctions = await withClient(migratedDb, async (c) =>
      (await c.query<{ def: string }>(
        `select pg_get_functiondef(p.oid) as def from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = 'public' and p.prorettype = 'trigger'::regtype`,
      )).rows.map((r) => r.def),
    );
    await withClient(entitiesDb, async (c) => {
      await c.query('create extension btree_gist');
      await c.query('create extension pg_trgm');
      for (const def of triggerFunctions) await c.query(def);
    });
    const orm = await openOrm({ clientUrl: databaseUrl(entitiesDb), poolSize: 1 });
    orms.push(orm);
    await orm.schema.create();

    const migrated = await catalogOf(migratedDb);
    const created = await catalogOf(entitiesDb);
    expect(triggerFunctions.length).toBeGreaterThan(0);
    expect(created.filter((line) => !migrated.includes(line))).toEqual([]);
    expect(migrated.filter((line) => !created.includes(line))).toEqual(OUTSIDE_ENTITIES);
  });
});
