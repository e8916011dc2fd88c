import type pg from 'pg';

/**
 * A bulk load into tables the server reads, made fast the way PostgreSQL's manual advises ("Populating
 * a Database"): their secondary indexes and their foreign keys are taken off before the rows go in
 * and put back after, from the definitions PostgreSQL itself prints. Building an index over rows
 * already there is a sort, where keeping it during the load is one random insertion per row (the GIN
 * indexes of search most of all); adding a foreign key checks every row in one join, where keeping it
 * fires one lookup per row.
 *
 * Names come from the catalog as regclass text or quote_ident, quoted where they need it.
 *
 * Indexes that back a constraint (primary keys, unique constraints: the suggestion trigger's
 * `on conflict` needs one) and every trigger stay. The tables stay logged throughout. Afterwards the
 * definitions are read again and must be exactly the ones from before, every index valid: the
 * database the bench measures is the schema the migrations made, not something near it.
 */
export interface TakenOff {
  indexes: { name: string; table: string; definition: string }[];
  foreignKeys: { name: string; table: string; definition: string }[];
}

/**
 * Everything about the tables' indexes, constraints and triggers, as comparable text (the triggers
 * PostgreSQL makes for foreign keys are left out: they are named by oid, and the constraints stand
 * for them).
 */
export async function schemaOf(db: pg.Client, tables: string[]): Promise<string[]> {
  const { rows } = await db.query<{ line: string }>(
    `select 'index ' || i.indexrelid::regclass || ': ' || pg_get_indexdef(i.indexrelid) || case when i.indisvalid then '' else ' (INVALID)' end line
       from pg_index i where i.indrelid::regclass::text = any($1)
     union all
     select 'constraint ' || conrelid::regclass || '.' || conname || ': ' || pg_get_constraintdef(oid) || case when convalidated then '' else ' NOT VALID' end
       from pg_constraint where conrelid::regclass::text = any($1)
     union all
     select 'trigger ' || tgrelid::regclass || '.' || tgname || ': ' || pg_get_triggerdef(oid) || ' enabled=' || tgenabled::text
       from pg_trigger where tgrelid::regclass::text = any($1) and not tgisinternal
     order by 1`,
    [tables],
  );
  return rows.map((r) => r.line);
}

/** Drops the tables' secondary indexes and foreign keys, returning how to make them again. */
export async function takeOff(db: pg.Client, tables: string[]): Promise<TakenOff> {
  const indexes = (await db.query<{ name: string; table: string; definition: string }>(
    `select i.indexrelid::regclass::text as name, i.indrelid::regclass::text as table, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i
      where i.indrelid::regclass::text = any($1)
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
      order by pg_relation_size(i.indrelid) desc, 1`,
    [tables],
  )).rows;
  const foreignKeys = (await db.query<{ name: string; table: string; definition: string }>(
    `select quote_ident(conname) as name, conrelid::regclass::text as table, pg_get_constraintdef(oid) as definition
       from pg_constraint where contype = 'f' and conrelid::regclass::text = any($1) order by 1`,
    [tables],
  )).rows;
  for (const fk of foreignKeys) await db.query(`alter table ${fk.table} drop constraint ${fk.name}`);
  for (const index of indexes) await db.query(`drop index ${index.name}`);
  return { indexes, foreignKeys };
}

/**
 * Builds the indexes again (spread over the given sessions, each given room to sort in memory), then
 * adds the foreign keys back, each checked against every row.
 */
export async function putBack(sessions: pg.Client[], taken: TakenOff): Promise<void> {
  for (const db of sessions) await db.query(`set maintenance_work_mem = '512MB'`);
  // Largest tables first (as takeOff lists them), so that the sessions finish together.
  await inParallel(sessions, taken.indexes.map((index) => (db: pg.Client) => db.query(index.definition)));
  // Each adds a lock on the referenced table too; one at a time keeps them from waiting on each other.
  for (const fk of taken.foreignKeys) await sessions[0].query(`alter table ${fk.table} add constraint ${fk.name} ${fk.definition}`);
}

/**
 * Waits until every index built again can be used. An index built over a table with HOT-updated
 * rows whose old versions some transaction may still see (the demo seed updates a few SKUs and order
 * lines; on a shared server another session's long transaction keeps their old versions) is marked
 * `indcheckxmin`: a query whose snapshot started before every transaction older than the index ended
 * does not use it. While such a transaction runs (a long write in any database of the server, such
 * as another bench loading), every new snapshot is one of those, and the bench would measure
 * sequential scans of millions of order lines. So it waits, naming the sessions it waits for.
 */
export async function awaitUsableIndexes(db: pg.Client, tables: string[], log: (line: string) => void): Promise<void> {
  let said = -Infinity;
  for (;;) {
    const { rows } = await db.query<{ pid: number; datname: string | null; state: string | null; running: string | null; indexes: string }>(
      `with fresh as (select i.indexrelid::regclass::text as name, age(i.xmin) as age
                        from pg_index i
                       where i.indrelid::regclass::text = any($1) and i.indcheckxmin),
            newest as (select min(age) as age, string_agg(name, ', ') as indexes from fresh having count(*) > 0)
       select a.pid, a.datname, a.state, (now() - a.xact_start)::text as running, newest.indexes
         from pg_stat_activity a, newest
        where a.pid <> pg_backend_pid()
          and age(a.backend_xid) > newest.age`,
      [tables],
    );
    if (rows.length === 0) return;
    if (performance.now() - said > 30_000) {
      said = performance.now();
      log(`waiting for older transactions to end before the rebuilt indexes (${rows[0].indexes}) can be used: `
        + rows.map((r) => `pid ${r.pid} in ${r.datname ?? '(no database)'}, ${r.state}, transaction open for ${r.running}`).join('; '));
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/** Runs the jobs on the sessions, each session taking the next job when its last one is done. */
export async function inParallel<T>(sessions: pg.Client[], jobs: ((db: pg.Client) => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(sessions.map(async (db) => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i](db);
    }
  }));
  return results;
}

