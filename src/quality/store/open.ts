/**
 * Opening the sample store: the embedded database (PGlite, by default in `<data>/quality/pglite`,
 * or in memory) or a shared PostgreSQL server. The schema is migrated before the store is handed
 * out, so a too-new database fails here, at start-up, with a clear message.
 */
import { join } from 'node:path';
import { noopLogger, type Logger } from '../../model/index.js';
import type { SampleStore } from '../types.js';
import { openPGliteConn } from './pglite-conn.js';
import { openPostgresConn } from './postgres-conn.js';
import { SqlSampleStore } from './sql-store.js';

/** Where the store lives. */
export type SampleStoreOptions =
  | { readonly kind: 'pglite'; /** The data directory (`<data>/quality/pglite`), or null for memory. */ readonly dir: string | null; readonly logger?: Logger }
  | { readonly kind: 'postgres'; readonly connectionString: string; readonly maxConnections?: number; readonly logger?: Logger };

/** Opens and migrates the store; rejects (and closes what it opened) when the database cannot be reached or its schema is too new. */
export async function openSampleStore(o: SampleStoreOptions): Promise<SampleStore> {
  const logger = o.logger ?? noopLogger;
  const conn = o.kind === 'pglite' ? await openPGliteConn(o.dir) : openPostgresConn(o.connectionString, logger, o.maxConnections);
  const store = new SqlSampleStore(conn);
  try {
    await store.migrate();
  } catch (e) {
    await conn.close().catch(() => undefined);
    throw e;
  }
  return store;
}

/** The embedded database's directory under the server's data directory: `<data>/quality/pglite`. */
export function pgliteDataDir(dataDir: string): string {
  return join(dataDir, 'quality', 'pglite');
}
