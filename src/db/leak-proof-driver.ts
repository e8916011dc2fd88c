import type { DatabaseConnection, Driver, TransactionSettings } from 'kysely';
import type { PoolConfig } from 'pg';
import { PostgreSqlConnection, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { logBuiltStatements } from './statement-log.js';

/**
 * Gives back the pool slot of a transaction that failed to end.
 *
 * Kysely's `ControlledTransaction` (which MikroORM's transactions use) releases its connection only
 * when BEGIN, COMMIT or ROLLBACK succeeds (upstream: kysely-org/kysely#1990). When PostgreSQL ends the
 * session inside a transaction (restart, failover, `pg_terminate_backend`,
 * `idle_in_transaction_session_timeout`), the ROLLBACK that MikroORM sends after the failure fails
 * too, MikroORM logs it and moves on, and the connection stays checked out for good: after as many
 * kills as the pool has connections, every request waits for a connection that never comes.
 *
 * This driver releases the connection itself when BEGIN or ROLLBACK fails (nothing else will). A
 * failed COMMIT is left alone: MikroORM always follows it with a ROLLBACK, which either succeeds
 * (Kysely then releases as usual) or fails and lands here. `pg-pool` destroys a released client
 * whose connection is broken instead of reusing it. Drop this file when the upstream issue is fixed.
 */
class TransactionReleasingDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init() {
    return this.inner.init();
  }

  acquireConnection(options?: Parameters<Driver['acquireConnection']>[0]) {
    return this.inner.acquireConnection(options);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    try {
      await this.inner.beginTransaction(connection, settings);
    } catch (error) {
      await this.inner.releaseConnection(connection);
      throw error;
    }
  }

  commitTransaction(connection: DatabaseConnection) {
    return this.inner.commitTransaction(connection);
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    try {
      await this.inner.rollbackTransaction(connection);
    } catch (error) {
      await this.inner.releaseConnection(connection);
      throw error;
    }
  }

  savepoint: Driver['savepoint'] = (connection, name, compile) => this.inner.savepoint!(connection, name, compile);
  rollbackToSavepoint: Driver['rollbackToSavepoint'] = (connection, name, compile) => this.inner.rollbackToSavepoint!(connection, name, compile);
  releaseSavepoint: Driver['releaseSavepoint'] = (connection, name, compile) => this.inner.releaseSavepoint!(connection, name, compile);

  releaseConnection(connection: DatabaseConnection) {
    return this.inner.releaseConnection(connection);
  }

  destroy() {
    return this.inner.destroy();
  }
}

class LeakProofPostgreSqlConnection extends PostgreSqlConnection {
  override createKyselyDialect(overrides: PoolConfig) {
    const dialect = super.createKyselyDialect(overrides);
    const createDriver = dialect.createDriver.bind(dialect);
    dialect.createDriver = () =>
      logBuiltStatements(new TransactionReleasingDriver(createDriver()), (query, execute) =>
        this.executeQuery(query.sql, execute, { params: [...query.parameters] }),
      );
    return dialect;
  }
}

/** MikroORM's PostgreSQL driver on the connection above (the `driver` option of the ORM config). */
export class LeakProofPostgreSqlDriver extends PostgreSqlDriver {
  protected override readonly connection = new LeakProofPostgreSqlConnection(this.config);
}
