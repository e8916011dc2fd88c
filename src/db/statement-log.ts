import type { CompiledQuery, DatabaseConnection, Driver, QueryResult } from 'kysely';

/** Runs one statement and logs it, the way the ORM logs its own (`Connection.executeQuery`). */
export type LogStatement = <T>(query: CompiledQuery, execute: () => Promise<T>) => Promise<T>;

/**
 * Puts the statements built with Kysely (typed SQL, `typed-sql.ts`) into the ORM's query log.
 * MikroORM logs what it runs itself, always as a raw query, but a built statement reaches the
 * connection without passing its log, so the log and the statement counts the tests take from it
 * would miss it. Each connection of the driver is wrapped once, when the pool first hands it out.
 */
export function logBuiltStatements(driver: Driver, log: LogStatement): Driver {
  const wrapped = new WeakSet<DatabaseConnection>();
  const acquire = driver.acquireConnection.bind(driver);
  driver.acquireConnection = async (options) => {
    const connection = await acquire(options);
    if (!wrapped.has(connection)) {
      wrapped.add(connection);
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = <R>(query: CompiledQuery, options?: Parameters<DatabaseConnection['executeQuery']>[1]): Promise<QueryResult<R>> =>
        query.query.kind === 'RawNode' ? execute<R>(query, options) : log(query, () => execute<R>(query, options));
    }
    return connection;
  };
  return driver;
}
