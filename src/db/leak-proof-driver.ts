import type { DatabaseConnection, Driver, TransactionSettings } from 'kysely';
import type { PoolConfig } from 'pg';
import { PostgreSqlConnection, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { logBuiltStatements } from './statement-log.js';
import { WriteSlots, acquireWithin, writeCapacity } from './write-slots.js';

/**
 * Gives back the pool slot of a transaction that failed to end; and keeps connections within the
 * request's deadline and the write slots (below).
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
  /** The write slot each connection held by writing work took (see write-slots.ts). */
  private readonly slotOf = new Map<DatabaseConnection, () => void>();

  constructor(
    private readonly inner: Driver,
    private readonly slots: WriteSlots,
  ) {}

  init() {
    return this.inner.init();
  }

  /** A connection within the request's deadline, and a write slot for writing work (`acquireWithin`). */
  async acquireConnection(options?: Parameters<Driver['acquireConnection']>[0]) {
    const { connection, releaseSlot } = await acquireWithin(
      this.slots,
      () => this.inner.acquireConnection(options),
      (late) => void this.inner.releaseConnection(late),
    );
    if (releaseSlot) this.slotOf.set(connection, releaseSlot);
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    try {
      await this.inner.beginTransaction(connection, settings);
    } catch (error) {
      await this.releaseConnection(connection);
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
      await this.releaseConnection(connection);
      throw error;
    }
  }

  savepoint: Driver['savepoint'] = (connection, name, compile) => this.inner.savepoint!(connection, name, compile);
  rollbackToSavepoint: Driver['rollbackToSavepoint'] = (connection, name, compile) => this.inner.rollbackToSavepoint!(connection, name, compile);
  releaseSavepoint: Driver['releaseSavepoint'] = (connection, name, compile) => this.inner.releaseSavepoint!(connection, name, compile);

  releaseConnection(connection: DatabaseConnection) {
    this.slotOf.get(connection)?.();
    this.slotOf.delete(connection);
    return this.inner.releaseConnection(connection);
  }

  destroy() {
    return this.inner.destroy();
  }
}

export class LeakProofPostgreSqlConnection extends PostgreSqlConnection {
  /** Shared by the ORM's statements and the prepared ones that use the pool directly (prepared-statements.ts). */
  readonly writeSlots = new WriteSlots(writeCapacity(this.config.get('pool')?.max ?? 10));

  override createKyselyDialect(overrides: PoolConfig) {
    const dialect = super.createKyselyDialect(overrides);
    const createDriver = dialect.createDriver.bind(dialect);
    dialect.createDriver = () =>
      logBuiltStatements(new TransactionReleasingDriver(createDriver(), this.writeSlots), (query, execute) =>
        this.executeQuery(query.sql, execute, { params: [...query.parameters] }),
      );
    return dialect;
  }
}

/** MikroORM's PostgreSQL driver on the connection above (the `driver` option of the ORM config). */
export class LeakProofPostgreSqlDriver extends PostgreSqlDriver {
  protected override readonly connection = new LeakProofPostgreSqlConnection(this.config);
}
