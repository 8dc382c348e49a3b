/**
 * Chunk encodings of the embedded TSDB: the Gorilla-style XOR chunk and the bit-stream and
 * varint primitives it is built on, plus the slab arena chunk bytes come from. The byte layout
 * is specified in `docs/formats/chunks.md`.
 */
export { BitReader } from './bit-reader.js';
export { allocChunkBytes, copyChunkBytes } from './byte-arena.js';
export { BitWriter } from './bit-writer.js';
export {
  byteCursor,
  MAX_VARINT_LEN,
  MAX_VARINT_LEN_64,
  putUvarint,
  putVarint,
  readUvarint,
  readUvarint64Bits,
  readUvarintBits,
  readVarint,
  readVarintBits,
  uvarintSize,
  varintSize,
  writeUvarint64Bits,
  writeUvarintBits,
  writeVarintBits,
  type ByteCursor,
  type Uint64Parts,
} from './varint.js';
export { XorChunk } from './xor-chunk.js';
export {
  CHUNK_ENCODING_XOR,
  CorruptChunkError,
  XOR_FORMAT_VERSION,
  XOR_HEADER_BYTES,
  XOR_MAX_SAMPLES,
  newXorEncoderState,
  type XorEncoderState,
} from './xor-format.js';
export { XorIterator } from './xor-iterator.js';
