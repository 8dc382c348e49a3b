/**
 * The little SQL surface the sample store needs, over PGlite and over node-postgres alike: both
 * speak PostgreSQL's SQL with `$1` parameters, so one schema, one set of migrations and one store
 * serve both backends, and only this port differs.
 */

/** Runs statements: parameterized queries (never text built from values) and parameterless scripts. */
export interface SqlQueryable {
  /** One statement with `$n` parameters; resolves with its rows. */
  query<R>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  /** A script of statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** A connection (PGlite's one, or a node-postgres pool). */
export interface SqlConn extends SqlQueryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
