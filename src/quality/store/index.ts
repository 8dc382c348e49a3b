/** The sample store's public surface (re-exported by src/quality/index.ts). */
export { openSampleStore, pgliteDataDir, type SampleStoreOptions } from './open.js';
export { DEFAULT_FIND_LIMIT, MAX_FIND_LIMIT, SampleStoreWriteError } from './sql-store.js';
export { MAX_TEXT_CHARS, SampleStoreInputError } from './rows.js';
export { SCHEMA_VERSION, SampleStoreSchemaError } from './migrations.js';
