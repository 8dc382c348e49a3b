/**
 * Public surface of `src/tsdb/block`: immutable on-disk blocks of the embedded TSDB (writing,
 * opening, querying, retention). Formats: docs/formats/block.md and docs/formats/index.md.
 */
export { openBlock, openBlocks, type Block, type OpenBlockOptions } from './block-reader.js';
export { writeBlock, type BlockChunk, type BlockSeriesInput, type WriteBlockOptions } from './block-writer.js';
export { INDEX_VERSION, CHUNKS_VERSION, META_VERSION, DEFAULT_CHUNK_FILE_MAX_BYTES } from './format.js';
export type { BlockMeta } from './meta.js';
export { blocksToDelete, deleteBlock, type RetentionBlock, type RetentionOptions } from './retention.js';
export { blockIdTimeMs, isBlockId, newBlockId, type RandomSource } from './ulid.js';
