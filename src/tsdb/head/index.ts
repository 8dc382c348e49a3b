/** The in-memory head of the TSDB. */
export { Head, type HeadOptions, type HeadStats } from './head.js';
export { HeadAppender, type CommitLog } from './head-appender.js';
export { ChunkStore, NO_CHUNK } from './chunk-store.js';
export { MemSeries, SAMPLES_PER_CHUNK, sameBits } from './mem-series.js';
export { MemPostings, intersect, subtract, unionAll } from './postings.js';
