/**
 * The embedded backend: PGlite (PostgreSQL compiled to WebAssembly, from the npm registry with
 * nothing downloaded at install), in memory or in a data directory. One PGlite instance is one
 * connection; it queues concurrent callers itself, so a transaction holds it until it ends.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { SqlConn, SqlQueryable } from './sql.js';

interface PGliteLike {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
  exec(sql: string): Promise<unknown>;
}

function queryable(db: PGliteLike): SqlQueryable {
  return {
    query: async <R>(sql: string, params: readonly unknown[] = []) => (await db.query<R>(sql, [...params])).rows,
    exec: async (sql) => {
      await db.exec(sql);
    },
  };
}

/** Opens PGlite in `dir` (created if missing) or in memory (`null`). */
export async function openPGliteConn(dir: string | null): Promise<SqlConn> {
  if (dir !== null) mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir ?? undefined);
  return {
    kind: 'pglite',
    ...queryable(db),
    transaction: (fn) => db.transaction((tx) => fn(queryable(tx))),
    close: () => db.close(),
  };
}
