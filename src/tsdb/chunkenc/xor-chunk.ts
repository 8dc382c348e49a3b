/**
 * The XOR chunk: Gorilla-style compression of one series' float samples, as in Prometheus'
 * `chunkenc.XORChunk`. Timestamps are stored as deltas of deltas in prefix-coded buckets,
 * values as the XOR with the previous value inside a leading/trailing-zero window. The byte
 * layout (format version 1) is specified in `docs/formats/chunks.md`.
 */
import { BitWriter } from './bit-writer.js';
import { copyChunkBytes } from './byte-arena.js';
import { writeUvarint64Bits, writeUvarintBits, writeVarintBits } from './varint.js';
import {
  CHUNK_ENCODING_XOR,
  i64,
  join64,
  split64,
  sub64,
  XOR_HEADER_BYTES,
  newXorEncoderState,
  type XorEncoderState,
} from './xor-format.js';
import * as xorFormat from './xor-format.js';
import { XorIterator } from './xor-iterator.js';

export { CHUNK_ENCODING_XOR } from './xor-format.js';

// Hot-path constants copied into module locals. Some loaders (tsx, which runs the tests and
// benches) compile every use of an imported binding into a getter call; in the per-sample loop
// that alone cost 4x in throughput.
const { ctz32, FLOAT_SCRATCH, FLOAT_WORDS, MAX_SAFE, NO_WINDOW, WORD_HI, WORD_LO, XOR_MAX_SAMPLES } = xorFormat;

const RESUME_STATE: XorEncoderState = newXorEncoderState();

/**
 * A chunk of up to 65535 float samples in strictly increasing timestamp order.
 *
 * A chunk made by `new XorChunk()` is appendable; one made by `XorChunk.fromBytes` is a
 * read-only view over existing bytes. Appends allocate nothing except when the bit buffer
 * doubles. Iterators see the samples that existed when `iterator()` was called, even while
 * appends continue.
 */
export class XorChunk {
  private writer: BitWriter | null;
  private readonly encoded: Uint8Array | null;
  private count = 0;
  // Time bounds; for read-only chunks they are decoded on first use.
  private boundsKnown = true;
  private tFirst = MAX_SAFE;
  private tLast = -MAX_SAFE;
  // Encoder state. The last delta is exact as a number unless it exceeds 2^53 (deltaHuge).
  private delta = 0;
  private deltaHuge = false;
  private deltaHi = 0;
  private deltaLo = 0;
  private vHi = 0;
  private vLo = 0;
  private leading = NO_WINDOW;
  private trailing = 0;

  /**
   * Creates an empty, appendable chunk whose buffer starts at `capacityBytes` (a good guess,
   * such as the size of the series' previous chunk, saves regrowing it). (`encoded` is how
   * `fromBytes` builds a read-only chunk; prefer calling `fromBytes`.)
   */
  constructor(encoded?: Uint8Array, capacityBytes?: number) {
    if (encoded === undefined) {
      this.writer = new BitWriter(capacityBytes);
      this.writer.writeBits(0, XOR_HEADER_BYTES * 8);
      this.encoded = null;
    } else {
      this.writer = null;
      this.encoded = encoded;
      this.count = encoded.length >= XOR_HEADER_BYTES ? (encoded[0] << 8) | encoded[1] : 0;
      this.boundsKnown = false;
    }
  }

  /**
   * An appendable chunk that continues the chunk encoded in `bytes` (which is copied): appends
   * produce exactly the bytes the original encoder would have. Decodes every sample once to
   * recover the encoder's state. Throws `CorruptChunkError` when `bytes` do not decode.
   */
  static resume(bytes: Uint8Array, saved?: XorEncoderState): XorChunk {
    if (saved !== undefined) return XorChunk.resumeFromState(bytes, saved);
    const it = new XorIterator(bytes);
    let n = 0;
    let first = 0;
    while (it.next()) {
      if (n === 0) first = it.at().tMs;
      n++;
    }
    const err = it.err();
    if (err !== null) throw err;
    const state = RESUME_STATE;
    if (n > 0) it.saveState(state);
    else state.lengthBits = XOR_HEADER_BYTES * 8;
    const chunk = new XorChunk(undefined, 1);
    chunk.writer = BitWriter.resume(bytes, state.lengthBits, bytes.length + (bytes.length >> 3) + 16);
    chunk.count = n;
    if (n > 0) {
      chunk.tFirst = first;
      chunk.tLast = state.tLast;
      chunk.delta = state.delta;
      chunk.deltaHuge = state.deltaHuge;
      chunk.deltaHi = state.deltaHi;
      chunk.deltaLo = state.deltaLo;
      chunk.vHi = state.vHi | 0;
      chunk.vLo = state.vLo | 0;
      chunk.leading = state.leading;
      chunk.trailing = state.trailing;
    }
    return chunk;
  }

  /**
   * Continues the chunk in `bytes` (copied) from an encoder state saved by `encoderState`,
   * without decoding it. The state must belong to exactly these bytes (a checkpoint stores them
   * together under one checksum).
   */
  private static resumeFromState(bytes: Uint8Array, saved: XorEncoderState): XorChunk {
    const chunk = new XorChunk(undefined, 1);
    chunk.writer = BitWriter.resume(bytes, saved.lengthBits, bytes.length + (bytes.length >> 3) + 16);
    chunk.count = bytes.length >= XOR_HEADER_BYTES ? (bytes[0] << 8) | bytes[1] : 0;
    chunk.tFirst = saved.tFirst;
    chunk.tLast = saved.tLast;
    chunk.delta = saved.delta;
    chunk.deltaHuge = false;
    chunk.vHi = saved.vHi | 0;
    chunk.vLo = saved.vLo | 0;
    chunk.leading = saved.leading;
    chunk.trailing = saved.trailing;
    return chunk;
  }

  /**
   * Copies the encoder's state into `out` so that `resume(bytes(), out)` can continue this chunk
   * without decoding it. Returns false (and leaves `out` alone) for an empty or read-only chunk,
   * or when the last delta exceeds 2^53 (then `resume` must decode).
   */
  encoderState(out: XorEncoderState): boolean {
    if (this.writer === null || this.count < 2 || this.deltaHuge) return false;
    out.tFirst = this.tFirst;
    out.tLast = this.tLast;
    out.delta = this.delta;
    out.deltaHuge = false;
    out.deltaHi = 0;
    out.deltaLo = 0;
    out.vHi = this.vHi >>> 0;
    out.vLo = this.vLo >>> 0;
    out.leading = this.leading;
    out.trailing = this.trailing;
    out.lengthBits = this.writer.lengthBits;
    return true;
  }

  /** The value of the newest sample (bit-exact); 0 for an empty chunk. */
  lastValue(): number {
    if (this.count === 0) return 0;
    if (this.writer === null) {
      const it = this.iterator();
      let v = 0;
      while (it.next()) v = it.at().value;
      return v;
    }
    FLOAT_WORDS[WORD_HI] = this.vHi;
    FLOAT_WORDS[WORD_LO] = this.vLo;
    return FLOAT_SCRATCH[0];
  }

  /**
   * Wraps encoded bytes (as returned by `bytes()` or `sealedBytes()`) without copying them.
   * The result is read-only; the caller must not modify `bytes` while the chunk is in use.
   * Nothing is validated here: a corrupt chunk surfaces as an iterator's `err()`.
   */
  static fromBytes(bytes: Uint8Array): XorChunk {
    return new XorChunk(bytes);
  }

  /** The chunk encoding byte (`CHUNK_ENCODING_XOR`). */
  encoding(): number {
    return CHUNK_ENCODING_XOR;
  }

  /** The number of samples in the chunk (for read-only chunks, as the header says). */
  numSamples(): number {
    return this.count;
  }

  /**
   * The timestamp of the first sample. An empty chunk reports `MAX_TIME_MS` (and `maxTimeMs`
   * reports `MIN_TIME_MS`), an empty interval; a corrupt one covers the samples decodable.
   */
  minTimeMs(): number {
    if (!this.boundsKnown) this.decodeBounds();
    return this.tFirst;
  }

  /** The timestamp of the last sample (decoded on first call for read-only chunks). */
  maxTimeMs(): number {
    if (!this.boundsKnown) this.decodeBounds();
    return this.tLast;
  }

  /**
   * The encoded bytes so far, as a view (no copy). Later appends never change the bits inside
   * the view, only its 2-byte header (the count) and bits past its end, so the view together
   * with `numSamples()` read at the same time stays a readable snapshot; that is how
   * `iterator()` works. Copy with `sealedBytes()` to persist or to keep the header exact.
   */
  bytes(): Uint8Array {
    return this.writer !== null ? this.writer.bytes() : (this.encoded as Uint8Array);
  }

  /**
   * The encoded bytes of a chunk that will never be appended to again: a view of the buffer
   * when it is nearly full (at most a quarter unused), else an exact-size copy. Sealing with a view
   * avoids leaving the whole outgrown buffer behind in the byte arena's slab.
   */
  finishedBytes(): Uint8Array {
    const w = this.writer;
    if (w === null) return this.encoded as Uint8Array;
    const used = w.lengthBytes;
    return w.capacityBytes - used <= used >> 2 ? w.bytes() : w.copyBytes();
  }

  /** An exact-size copy of the encoded bytes, for persistence or to trim a finished chunk. */
  sealedBytes(): Uint8Array {
    return this.writer !== null ? this.writer.copyBytes() : copyChunkBytes(this.encoded as Uint8Array);
  }

  /**
   * Appends a sample. The caller guarantees `tMs` is a safe integer strictly greater than the
   * previous timestamp; a violation, a full chunk or a read-only chunk throw (programming
   * errors). The value's bits are stored exactly, NaN payloads included.
   */
  append(tMs: number, value: number): void {
    const w = this.writer;
    if (w === null) throw new Error('XorChunk: append to a read-only chunk');
    const n = this.count;
    if (n >= XOR_MAX_SAMPLES) throw new RangeError('XorChunk: chunk is full (65535 samples)');
    if (!Number.isSafeInteger(tMs) || (n > 0 && !(tMs > this.tLast))) {
      throw new RangeError(`XorChunk: timestamp ${tMs} not a safe integer after ${this.tLast}`);
    }
    FLOAT_SCRATCH[0] = value;
    const hi = FLOAT_WORDS[WORD_HI];
    const lo = FLOAT_WORDS[WORD_LO];
    if (n === 0) {
      writeVarintBits(w, tMs);
      w.writeBits64(hi, lo);
      this.tFirst = tMs;
    } else {
      if (n === 1) this.writeFirstDelta(w, tMs);
      else this.writeTimestamp(w, tMs);
      this.writeValue(w, hi, lo);
    }
    this.tLast = tMs;
    this.vHi = hi | 0; // int32 keeps the field a small integer (no boxed double)
    this.vLo = lo | 0;
    this.count = n + 1;
    w.patchUint16(0, n + 1);
  }

  /**
   * Returns an iterator over the samples present now. Pass a previous iterator as `reuse` to
   * reset and return it instead of allocating a new one.
   */
  iterator(reuse?: XorIterator): XorIterator {
    const it = reuse ?? new XorIterator();
    return it.reset(this.bytes(), this.count);
  }

  private decodeBounds(): void {
    this.boundsKnown = true;
    const it = this.iterator();
    if (!it.next()) return;
    this.tFirst = it.at().tMs;
    this.tLast = this.tFirst;
    while (it.next()) this.tLast = it.at().tMs;
  }

  private writeFirstDelta(w: BitWriter, tMs: number): void {
    const delta = tMs - this.tFirst;
    if (delta <= MAX_SAFE) {
      writeUvarintBits(w, delta);
      this.delta = delta;
      return;
    }
    this.exactDelta(tMs);
    writeUvarint64Bits(w, this.deltaHi, this.deltaLo);
  }

  private writeTimestamp(w: BitWriter, tMs: number): void {
    const delta = tMs - this.tLast;
    // Both deltas are exact and in [1, 2^53), so their difference is exact too.
    if (!this.deltaHuge && delta <= MAX_SAFE) {
      this.writeDod(w, delta - this.delta);
      this.delta = delta;
      return;
    }
    // Rare: one of the deltas exceeds 2^53. Redo the arithmetic on 64-bit halves.
    let pHi = this.deltaHi;
    let pLo = this.deltaLo;
    if (!this.deltaHuge) {
      split64(this.delta);
      pHi = i64.hi;
      pLo = i64.lo;
    }
    this.exactDelta(tMs);
    sub64(this.deltaHi, this.deltaLo, pHi, pLo);
    const dod = join64(i64.hi, i64.lo);
    if (Number.isSafeInteger(dod)) {
      this.writeDod(w, dod);
    } else {
      w.writeBits(0b1111, 4);
      w.writeBits64(i64.hi, i64.lo);
    }
  }

  /** Sets the delta fields to tMs - tLast, computed exactly on 64-bit halves. */
  private exactDelta(tMs: number): void {
    split64(this.tLast);
    const prevHi = i64.hi;
    const prevLo = i64.lo;
    split64(tMs);
    sub64(i64.hi, i64.lo, prevHi, prevLo);
    this.deltaHi = i64.hi;
    this.deltaLo = i64.lo;
    const delta = join64(i64.hi, i64.lo);
    this.deltaHuge = !Number.isSafeInteger(delta);
    this.delta = delta;
  }

  /** Writes a safe-integer delta-of-delta in the smallest bucket that holds it. */
  private writeDod(w: BitWriter, dod: number): void {
    if (dod === 0) {
      w.writeBit(0);
    } else if (dod >= -8191 && dod <= 8192) {
      w.writeBits(0x8000 | (dod & 0x3fff), 16); // '10' + 14 bits
    } else if (dod >= -65535 && dod <= 65536) {
      w.writeBits(0xc0000 | (dod & 0x1ffff), 20); // '110' + 17 bits
    } else if (dod >= -524287 && dod <= 524288) {
      w.writeBits(0xe00000 | (dod & 0xfffff), 24); // '1110' + 20 bits
    } else {
      w.writeBits(0b1111, 4);
      split64(dod);
      w.writeBits64(i64.hi, i64.lo);
    }
  }

  private writeValue(w: BitWriter, hi: number, lo: number): void {
    const xHi = (hi ^ this.vHi) >>> 0;
    const xLo = (lo ^ this.vLo) >>> 0;
    if (xHi === 0 && xLo === 0) {
      w.writeBit(0);
      return;
    }
    let lead = xHi !== 0 ? Math.clz32(xHi) : 32 + Math.clz32(xLo);
    const trail = xLo !== 0 ? ctz32(xLo) : 32 + ctz32(xHi);
    if (lead > 31) lead = 31; // the window field has 5 bits
    let wLead = this.leading;
    let wTrail = this.trailing;
    if (wLead !== NO_WINDOW && lead >= wLead && trail >= wTrail) {
      w.writeBits(0b10, 2);
    } else {
      wLead = lead;
      wTrail = trail;
      this.leading = lead;
      this.trailing = trail;
      // '11' + 5 bits leading zeros + 6 bits significant-bit count (64 written as 0).
      w.writeBits((0b11 << 11) | (lead << 6) | ((64 - lead - trail) & 0x3f), 13);
    }
    const sig = 64 - wLead - wTrail;
    // Shift the window down to bit 0: (sHi, sLo) = (xHi, xLo) >>> wTrail.
    let sHi = xHi;
    let sLo = xLo;
    if (wTrail >= 32) {
      sLo = xHi >>> (wTrail - 32);
      sHi = 0;
    } else if (wTrail > 0) {
      sLo = (xLo >>> wTrail) | (xHi << (32 - wTrail));
      sHi = xHi >>> wTrail;
    }
    if (sig > 32) {
      w.writeBits(sHi, sig - 32);
      w.writeBits(sLo, 32);
    } else {
      w.writeBits(sLo, sig);
    }
  }
}
