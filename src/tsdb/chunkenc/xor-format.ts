/**
 * Constants and arithmetic shared by the XOR chunk encoder (`xor-chunk.ts`) and decoder
 * (`xor-iterator.ts`). The layout itself is specified in `docs/formats/chunks.md`.
 *
 * Two kinds of bit fiddling live here, both without allocation:
 * - float64 <-> two uint32 halves through one reused 8-byte buffer (bit-exact, NaN payloads
 *   included, because the bytes are copied rather than the number recomputed);
 * - exact 64-bit integer add/subtract on (signed hi, unsigned lo) halves, for the rare
 *   timestamp deltas that exceed 2^53 and so cannot be represented exactly as a float.
 */
import { StorageError, StorageErrorCode } from '../../storage/index.js';

/** The chunk encoding byte for XOR chunks (Prometheus' `EncXOR`). */
export const CHUNK_ENCODING_XOR = 1;

/** The version of the XOR chunk byte layout described in `docs/formats/chunks.md`. */
export const XOR_FORMAT_VERSION = 1;

/** Bytes before the bit stream: the big-endian uint16 sample count. */
export const XOR_HEADER_BYTES = 2;

/** The most samples one XOR chunk can hold (the header's uint16 limit). */
export const XOR_MAX_SAMPLES = 0xffff;

/** The window sentinel meaning "no leading/trailing-zero window has been written yet". */
export const NO_WINDOW = 0xff;

/** The largest safe integer, re-exported under a short name for hot-path comparisons. */
export const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * The error a decoder reports for a chunk whose bytes cannot be valid. It is a `StorageError`
 * with the registry's `ERR_CORRUPTION` code, so it can cross module boundaries as is; callers
 * that know which file or block the chunk came from may wrap it with that context.
 */
export class CorruptChunkError extends StorageError {
  /** Creates the error; `message` says what was wrong and at which sample. */
  constructor(message: string) {
    super(StorageErrorCode.CORRUPTION, message);
    this.name = 'CorruptChunkError';
  }
}

/**
 * A reused 8-byte scratch for float64 bit access: write `FLOAT_SCRATCH[0]`, read the halves at
 * `FLOAT_WORDS[WORD_HI]` and `FLOAT_WORDS[WORD_LO]` (or the other way round). The bytes are
 * copied, never recomputed, so NaN payloads such as the stale marker survive.
 */
export const FLOAT_SCRATCH = new Float64Array(1);

/** The same 8 bytes as `FLOAT_SCRATCH`, seen as two uint32 words in platform byte order. */
export const FLOAT_WORDS = new Uint32Array(FLOAT_SCRATCH.buffer);

/** The index in `FLOAT_WORDS` of the high (sign, exponent, top of mantissa) 32 bits. */
export const WORD_HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/** The index in `FLOAT_WORDS` of the low 32 bits of the mantissa. */
export const WORD_LO = 1 - WORD_HI;

/** Counts the trailing zero bits of a 32-bit value (32 for zero). */
export function ctz32(x: number): number {
  if (x === 0) return 32;
  return 31 - Math.clz32(x & -x);
}

const TWO_32 = 4294967296;

/** A 64-bit integer as a signed high half (int32) and an unsigned low half (uint32). */
export interface Int64Parts {
  hi: number;
  lo: number;
}

/** The result register of `split64`, `add64` and `sub64`: read it right after the call. */
export const i64: Int64Parts = { hi: 0, lo: 0 };

/** Splits a safe integer into `i64.hi` (signed) and `i64.lo` (unsigned); exact. */
export function split64(x: number): void {
  const hi = Math.floor(x / TWO_32);
  i64.hi = hi;
  i64.lo = x - hi * TWO_32;
}

/** Joins signed-hi/unsigned-lo halves into a number; exact whenever the result is safe. */
export function join64(hi: number, lo: number): number {
  // Rounding is monotonic, so results beyond +-2^53 never round back into the safe range:
  // callers check the result with Number.isSafeInteger.
  return hi * TWO_32 + lo;
}

/** Sets `i64` to a + b, wrapping modulo 2^64 like Go's int64. */
export function add64(aHi: number, aLo: number, bHi: number, bLo: number): void {
  let lo = aLo + bLo;
  let carry = 0;
  if (lo >= TWO_32) {
    lo -= TWO_32;
    carry = 1;
  }
  i64.hi = (aHi + bHi + carry) | 0;
  i64.lo = lo;
}

/** Sets `i64` to a - b, wrapping modulo 2^64 like Go's int64. */
export function sub64(aHi: number, aLo: number, bHi: number, bLo: number): void {
  let lo = aLo - bLo;
  let borrow = 0;
  if (lo < 0) {
    lo += TWO_32;
    borrow = 1;
  }
  i64.hi = (aHi - bHi - borrow) | 0;
  i64.lo = lo;
}

/**
 * The state an XOR encoder needs to continue a chunk after its last sample; an iterator that
 * has decoded every sample holds exactly this (see `XorChunk.resume`).
 */
export interface XorEncoderState {
  /** Timestamp of the first sample (only `encoderState` fills it). */
  tFirst: number;
  tLast: number;
  delta: number;
  deltaHuge: boolean;
  deltaHi: number;
  deltaLo: number;
  vHi: number;
  vLo: number;
  leading: number;
  trailing: number;
  /** Bits of the chunk in use (header included). */
  lengthBits: number;
}

/** A zeroed `XorEncoderState`, to be filled by `XorChunk.encoderState` or a decoder. */
export function newXorEncoderState(): XorEncoderState {
  return { tFirst: 0, tLast: 0, delta: 0, deltaHuge: false, deltaHi: 0, deltaLo: 0, vHi: 0, vLo: 0, leading: 0, trailing: 0, lengthBits: 0 };
}
