/**
 * Constants of the block formats (docs/formats/block.md, docs/formats/index.md) and the one
 * error helper every reader uses. Changing any value here changes the on-disk format: bump the
 * version, document it, and add a fixture.
 */
import { StorageError, StorageErrorCode } from '../../storage/index.js';

/** Magic bytes at the start of an index file: "ISIX". */
export const INDEX_MAGIC = 0x49534958;

/** Magic bytes at the start of a chunk segment file: "ISCH". */
export const CHUNKS_MAGIC = 0x49534348;

/** The index format version this code writes and reads. */
export const INDEX_VERSION = 1;

/** The chunk segment file format version this code writes and reads. */
export const CHUNKS_VERSION = 1;

/** The meta.json format version this code writes and reads. */
export const META_VERSION = 1;

/** Bytes of the header of an index or chunk segment file: magic, version, three zero bytes. */
export const FILE_HEADER_BYTES = 8;

/** Bytes of the index's table of contents: four u64 section offsets and a CRC-32. */
export const TOC_BYTES = 36;

/** Bytes of the CRC-32 that ends every index section and every chunk. */
export const CRC_BYTES = 4;

/** The default size limit of one chunk segment file (512 MiB). */
export const DEFAULT_CHUNK_FILE_MAX_BYTES = 512 * 1024 * 1024;

/** 2^32: chunk references are `fileNumber * CHUNK_REF_FILE_FACTOR + offset`. */
export const CHUNK_REF_FILE_FACTOR = 2 ** 32;

/** The largest offset a 32-bit series id or postings offset can hold. */
export const MAX_U32 = 0xffffffff;

/** The name of a block's index file. */
export const INDEX_FILE = 'index';

/** The name of a block's meta file. */
export const META_FILE = 'meta.json';

/** The name of a block's chunk directory. */
export const CHUNKS_DIR = 'chunks';

/** The suffix of a block directory that is still being written. */
export const TMP_SUFFIX = '.tmp';

/** The suffix of a block directory that is being deleted. */
export const DELETED_SUFFIX = '.deleted';

/** Returns the file name of chunk segment `fileNumber` (1 → `000001`). */
export function chunkFileName(fileNumber: number): string {
  return String(fileNumber).padStart(6, '0');
}

/** Builds the `ERR_CORRUPTION` error for `file`, optionally wrapping its cause. */
export function corruption(file: string, what: string, cause?: unknown): StorageError {
  return new StorageError(StorageErrorCode.CORRUPTION, `${file}: ${what}`, cause === undefined ? undefined : { cause });
}

/** Writes the 8-byte file header (magic, version, zero padding) into `out` at 0. */
export function putFileHeader(out: Uint8Array, magic: number, version: number): void {
  new DataView(out.buffer, out.byteOffset, FILE_HEADER_BYTES).setUint32(0, magic);
  out[4] = version;
  out[5] = 0;
  out[6] = 0;
  out[7] = 0;
}

/** Checks an 8-byte file header; throws `ERR_CORRUPTION` naming `file` when it is wrong. */
export function checkFileHeader(file: string, bytes: Uint8Array, magic: number, version: number): void {
  if (bytes.length < FILE_HEADER_BYTES) throw corruption(file, 'file shorter than its header');
  const got = new DataView(bytes.buffer, bytes.byteOffset, FILE_HEADER_BYTES).getUint32(0);
  if (got !== magic) throw corruption(file, `bad magic 0x${got.toString(16)}`);
  if (bytes[4] !== version) throw corruption(file, `unsupported format version ${bytes[4]}`);
}
