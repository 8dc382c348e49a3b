/**
 * The shared backend: a PostgreSQL server through node-postgres' pool. Each transaction takes a
 * client of its own, so writers run concurrently and PostgreSQL's row locks order them.
 */
import pg from 'pg';
import type { Logger } from '../../model/index.js';
import type { SqlConn, SqlQueryable } from './sql.js';

/** Connects a pool of at most `maxConnections` to `connectionString` (libpq's URI or key=value form). */
export function openPostgresConn(connectionString: string, logger: Logger, maxConnections = 4): SqlConn {
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  // An idle client whose server went away emits here; without a listener the process would exit.
  pool.on('error', (e) => logger.warn('quality store: PostgreSQL connection lost', { err: e.message }));
  const on = (c: pg.Pool | pg.PoolClient): SqlQueryable => ({
    query: async <R>(sql: string, params: readonly unknown[] = []) => (await c.query(sql, [...params])).rows as R[],
    exec: async (sql) => {
      await c.query(sql);
    },
  });
  return {
    kind: 'postgres',
    ...on(pool),
    transaction: async (fn) => {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const out = await fn(on(client));
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch((re: unknown) => void (broken = re instanceof Error ? re : new Error(String(re))));
        throw e;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
