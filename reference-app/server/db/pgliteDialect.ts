import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import type { DatabaseHealth } from './health';
import type { PGliteClient } from './pgliteThread';

// PGlite is one Postgres backend behind one connection. kysely-pglite hands that connection to
// every caller at once, so a transaction's BEGIN..COMMIT interleaves with other requests'
// statements. This driver lends the single connection to one holder at a time instead: a
// transaction owns it from BEGIN to COMMIT, other queries wait their turn.

/** How long a caller may wait for the connection before we call it a deadlock (a nested query). */
const ACQUIRE_TIMEOUT_MS = 30_000;

class ConnectionLock {
  #tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const previous = this.#tail;
    this.#tail = previous.then(() => held);
    return new Promise((resolve, reject) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        reject(
          new Error(
            'PGlite connection wait timed out: a query outside a transaction waited for that transaction (use the transaction object inside it)',
          ),
        );
      }, ACQUIRE_TIMEOUT_MS);
      timer.unref?.();
      void previous.then(() => {
        clearTimeout(timer);
        // A waiter that gave up still gets its turn; it passes it straight on.
        if (timedOut) release();
        else resolve(release);
      });
    });
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(
    private readonly client: PGliteClient,
    readonly release: () => void,
    private readonly health?: DatabaseHealth,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // PGlite's files failing under it (a closed instance, an I/O error) count like a lost server.
    const result = await this.client.query<R>(compiled.sql, [...compiled.parameters]).catch((error: unknown) => {
      this.health?.failed(error);
      throw error;
    });
    this.health?.succeeded();
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined && result.command !== 'SELECT' ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not support streaming queries');
  }
}

class PGliteDriver implements Driver {
  readonly #lock = new ConnectionLock();
  constructor(
    private readonly client: PGliteClient,
    private readonly health?: DatabaseHealth,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#lock.acquire();
    return new PGliteConnection(this.client, release, this.health);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('BEGIN'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PGliteConnection).release();
  }

  async destroy(): Promise<void> {
    if (!this.client.closed) await this.client.close();
  }
}

/** A Kysely dialect over one PGlite instance (in this thread, or its own: db/pgliteThread.ts). */
export function pgliteDialect(client: PGliteClient, health?: DatabaseHealth): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PGliteDriver(client, health),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
