/**
 * Public surface of `src/tsdb`, the embedded time-series database. Everything else in the
 * folder is internal; other modules use `Db` through the storage contracts.
 */
export { Db, type PinnedBlock } from './db.js';
export { DEFAULT_BLOCK_RANGE_MS, DEFAULT_RETENTION_MS, resolveDbOptions, type DbOptions } from './db-options.js';
export type { DbStats } from './db-stats.js';
export type { FsyncPolicy } from './wal/index.js';
