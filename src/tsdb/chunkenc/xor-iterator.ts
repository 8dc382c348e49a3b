/**
 * The decoder of XOR chunks: a `SeriesIterator` over the encoded bytes.
 *
 * Decoding state is a handful of numeric fields; nothing is allocated per sample. Corrupt or
 * truncated input ends iteration with `err()` set: the bit reader never reads past the bytes,
 * each sample consumes at least one bit, and the sample count bounds the loop.
 */
import type { Sample, SeriesIterator, UnixMs } from '../../model/index.js';
import * as bitReader from './bit-reader.js';
import { BitReader } from './bit-reader.js';
import { readUvarint64Bits, readVarintBits, type Uint64Parts } from './varint.js';
import {
  add64,
  CorruptChunkError,
  i64,
  join64,
  split64,
  XOR_HEADER_BYTES,
  type XorEncoderState,
} from './xor-format.js';
import * as xorFormat from './xor-format.js';

// Hot-path constants copied into module locals. Some loaders (tsx, which runs the tests and
// benches) compile every use of an imported binding into a getter call; in the per-sample loop
// that alone cost 4x in throughput.
const { FLOAT_SCRATCH, FLOAT_WORDS, MAX_SAFE, NO_WINDOW, WORD_HI, WORD_LO } = xorFormat;
const { bitAt, bitsAt } = bitReader;

const u64: Uint64Parts = { hi: 0, lo: 0 };

/**
 * Iterates the samples of an XOR chunk in timestamp order (see `SeriesIterator` for the
 * contract). Reusable: `reset()` points it at another chunk without allocating.
 */
export class XorIterator implements SeriesIterator {
  private readonly reader = new BitReader();
  private readonly sample: Sample = { tMs: 0, value: 0 };
  private total = 0;
  private decoded = 0;
  private done = true;
  private error: Error | null = null;
  private t = 0;
  // The last delta; when it exceeds 2^53 it is only exact as (deltaHi, deltaLo).
  private delta = 0;
  private deltaHuge = false;
  private deltaHi = 0;
  private deltaLo = 0;
  private vHi = 0;
  private vLo = 0;
  private leading = NO_WINDOW;
  private trailing = 0;

  /** Creates an iterator over `bytes` (see `reset`), or an exhausted one without arguments. */
  constructor(bytes?: Uint8Array, numSamples?: number) {
    if (bytes !== undefined) this.reset(bytes, numSamples);
  }

  /**
   * Positions the iterator before the first sample of the chunk encoded in `bytes`. When
   * `numSamples` is given, iteration stops after that many samples even if the header counts
   * more (a snapshot of a chunk that is still being appended to). Returns `this`.
   */
  reset(bytes: Uint8Array, numSamples?: number): this {
    this.decoded = 0;
    this.t = 0;
    this.delta = 0;
    this.deltaHuge = false;
    this.vHi = 0;
    this.vLo = 0;
    this.leading = NO_WINDOW;
    this.trailing = 0;
    this.error = null;
    this.reader.reset(bytes, XOR_HEADER_BYTES);
    if (bytes.length < XOR_HEADER_BYTES) {
      this.total = 0;
      this.done = true;
      this.error = new CorruptChunkError(`XOR chunk of ${bytes.length} bytes has no header`);
      return this;
    }
    const header = (bytes[0] << 8) | bytes[1];
    this.total = numSamples === undefined ? header : Math.min(numSamples, header);
    this.done = false;
    return this;
  }

  /** Advances to the next sample; false when the chunk is exhausted or corrupt. */
  next(): boolean {
    if (this.done) return false;
    const i = this.decoded;
    if (i >= this.total) {
      this.done = true;
      return false;
    }
    const r = this.reader;
    let ok: boolean;
    if (i === 0) {
      ok = this.readFirst();
    } else {
      ok = i === 1 ? this.readFirstDelta() : this.readDod();
      ok = this.readValue() && ok;
    }
    if (r.overflowed) return this.fail(`XOR chunk truncated in sample ${i} of ${this.total}`);
    if (!ok) return this.fail(`XOR chunk corrupt at sample ${i}`);
    this.decoded = i + 1;
    const s = this.sample;
    s.tMs = this.t;
    FLOAT_WORDS[WORD_HI] = this.vHi;
    FLOAT_WORDS[WORD_LO] = this.vLo;
    s.value = FLOAT_SCRATCH[0];
    return true;
  }

  /** Advances to the first sample at or after `tMs`; never moves backwards. */
  seek(tMs: UnixMs): boolean {
    if (this.done) return false;
    if (this.decoded === 0 && !this.next()) return false;
    while (this.t < tMs) {
      if (!this.next()) return false;
    }
    return true;
  }

  /**
   * Decodes a run of samples straight into the caller's arrays (see `SeriesIterator.nextBatch`).
   * Samples after the second go through `decodeRun`, a copy of the decoding steps with the bit
   * position and the decoder state in local variables; the first two samples, the rare encodings
   * (64-bit deltas of deltas, deltas beyond 2^53) and anything corrupt or truncated take `next()`,
   * one sample at a time, so errors are found and worded in one place.
   */
  nextBatch(maxTMs: UnixMs, tMs: Float64Array, values: Float64Array, offset: number, cap: number): number {
    let n = 0;
    while (n < cap) {
      if (this.done) return n;
      if (this.decoded >= 2 && !this.deltaHuge) {
        const before = this.decoded;
        n += this.decodeRun(maxTMs, tMs, values, offset + n, cap - n);
        if (this.decoded !== before && this.t > maxTMs) return n; // stopped on a sample past maxTMs
        if (n >= cap) return n;
      }
      if (!this.next()) return n;
      if (this.t > maxTMs) return n;
      tMs[offset + n] = this.t;
      values[offset + n] = this.sample.value;
      n++;
    }
    return n;
  }

  /**
   * The fast path of `nextBatch`: decodes samples while they use the common encodings, writing
   * up to `cap` of them, and stops after consuming one past `maxTMs`. It commits a sample only
   * once all of its bits were read and found valid, so a sample it cannot take is left for
   * `next()` untouched. Returns the count written.
   */
  private decodeRun(maxTMs: UnixMs, tMs: Float64Array, values: Float64Array, offset: number, cap: number): number {
    const r = this.reader;
    const buf = r.bytes;
    const limit = r.limitBits;
    const total = this.total;
    let pos = r.positionBits;
    let decoded = this.decoded;
    let t = this.t;
    let delta = this.delta;
    let vHi = this.vHi;
    let vLo = this.vLo;
    let leading = this.leading;
    let trailing = this.trailing;
    let v = this.sample.value;
    let n = 0;
    while (n < cap && decoded < total) {
      let p = pos;
      // Delta of delta: '0', '10' + 14 bits, '110' + 17, '1110' + 20; '1111' + 64 goes to next().
      let dod: number;
      if (bitAt(buf, p) === 0) {
        dod = 0;
        p += 1;
      } else if (bitAt(buf, p + 1) === 0) {
        const raw = bitsAt(buf, p + 2, 14);
        dod = raw > 0x2000 ? raw - 0x4000 : raw;
        p += 16;
      } else if (bitAt(buf, p + 2) === 0) {
        const raw = bitsAt(buf, p + 3, 17);
        dod = raw > 0x10000 ? raw - 0x20000 : raw;
        p += 20;
      } else if (bitAt(buf, p + 3) === 0) {
        const raw = bitsAt(buf, p + 4, 20);
        dod = raw > 0x80000 ? raw - 0x100000 : raw;
        p += 24;
      } else break;
      const nd = delta + dod;
      if (!(nd > 0 && nd <= MAX_SAFE)) break;
      const nt = t + nd;
      if (nt > MAX_SAFE) break;
      // Value: '0' repeats it; '10' XORs within the last window; '11' + 5 + 6 bits opens a window.
      let nLeading = leading;
      let nTrailing = trailing;
      let changed = false;
      let hi = 0;
      let lo = 0;
      if (bitAt(buf, p) === 0) {
        p += 1;
      } else {
        let lead: number;
        let trail: number;
        if (bitAt(buf, p + 1) === 0) {
          if (leading === NO_WINDOW) break;
          lead = leading;
          trail = trailing;
          p += 2;
        } else {
          lead = bitsAt(buf, p + 2, 5);
          const sigBits = bitsAt(buf, p + 7, 6);
          trail = 64 - lead - (sigBits === 0 ? 64 : sigBits);
          if (trail < 0) break;
          nLeading = lead;
          nTrailing = trail;
          p += 13;
        }
        const sig = 64 - lead - trail;
        if (sig > 32) {
          hi = bitsAt(buf, p, sig - 32);
          lo = bitsAt(buf, p + sig - 32, 32);
        } else {
          lo = bitsAt(buf, p, sig);
        }
        p += sig;
        if (trail >= 32) {
          hi = lo << (trail - 32);
          lo = 0;
        } else if (trail > 0) {
          hi = (hi << trail) | (lo >>> (32 - trail));
          lo <<= trail;
        }
        changed = true;
      }
      if (p > limit) break; // truncated: next() reports it
      pos = p;
      decoded++;
      t = nt;
      delta = nd;
      leading = nLeading;
      trailing = nTrailing;
      if (changed) {
        vHi = (vHi ^ hi) >>> 0;
        vLo = (vLo ^ lo) >>> 0;
        FLOAT_WORDS[WORD_HI] = vHi;
        FLOAT_WORDS[WORD_LO] = vLo;
        v = FLOAT_SCRATCH[0];
      }
      if (nt > maxTMs) break;
      tMs[offset + n] = nt;
      values[offset + n] = v;
      n++;
    }
    r.moveTo(pos);
    this.decoded = decoded;
    this.t = t;
    this.delta = delta;
    this.vHi = vHi;
    this.vLo = vLo;
    this.leading = leading;
    this.trailing = trailing;
    this.sample.tMs = t;
    this.sample.value = v;
    return n;
  }

  /** Copies the decoder's state after the current sample into `out` (for `XorChunk.resume`). */
  saveState(out: XorEncoderState): void {
    out.tFirst = 0; // not tracked by the iterator; XorChunk.resume keeps its own
    out.tLast = this.t;
    out.delta = this.delta;
    out.deltaHuge = this.deltaHuge;
    out.deltaHi = this.deltaHi;
    out.deltaLo = this.deltaLo;
    out.vHi = this.vHi;
    out.vLo = this.vLo;
    out.leading = this.leading;
    out.trailing = this.trailing;
    out.lengthBits = this.reader.positionBits;
  }

  /** The current sample; a reused object overwritten by the next `next`/`seek`. */
  at(): Readonly<Sample> {
    return this.sample;
  }

  /** The error that ended iteration (a corrupt or truncated chunk), or null. */
  err(): Error | null {
    return this.error;
  }

  private fail(message: string): boolean {
    this.error = new CorruptChunkError(message);
    this.done = true;
    return false;
  }

  private readFirst(): boolean {
    const r = this.reader;
    const t = readVarintBits(r);
    this.vHi = r.readBits(32);
    this.vLo = r.readBits(32);
    this.t = t;
    return t === t; // NaN marks a bad varint
  }

  private readFirstDelta(): boolean {
    if (!readUvarint64Bits(this.reader, u64)) return false;
    // The first delta is a dod against an implicit previous delta of 0.
    if (u64.hi < 0x200000) return this.advance(join64(u64.hi, u64.lo));
    return this.advanceExact(u64.hi | 0, u64.lo);
  }

  private readDod(): boolean {
    const r = this.reader;
    if (r.readBit() === 0) return this.advance(0);
    let raw: number;
    if (r.readBit() === 0) {
      raw = r.readBits(14);
      return this.advance(raw > 0x2000 ? raw - 0x4000 : raw);
    }
    if (r.readBit() === 0) {
      raw = r.readBits(17);
      return this.advance(raw > 0x10000 ? raw - 0x20000 : raw);
    }
    if (r.readBit() === 0) {
      raw = r.readBits(20);
      return this.advance(raw > 0x80000 ? raw - 0x100000 : raw);
    }
    const hi = r.readBits(32) | 0;
    const lo = r.readBits(32);
    const dod = join64(hi, lo);
    return Number.isSafeInteger(dod) ? this.advance(dod) : this.advanceExact(hi, lo);
  }

  /** Applies a safe-integer delta-of-delta; float arithmetic is exact on this path. */
  private advance(dod: number): boolean {
    if (!this.deltaHuge) {
      const delta = this.delta + dod;
      if (delta > 0 && delta <= MAX_SAFE) {
        const t = this.t + delta;
        if (t > MAX_SAFE) return false;
        this.t = t;
        this.delta = delta;
        return true;
      }
    }
    split64(dod);
    return this.advanceExact(i64.hi, i64.lo);
  }

  /** Applies a delta-of-delta with 64-bit integer arithmetic (deltas beyond 2^53). */
  private advanceExact(dodHi: number, dodLo: number): boolean {
    let dHi = this.deltaHi;
    let dLo = this.deltaLo;
    if (!this.deltaHuge) {
      split64(this.delta);
      dHi = i64.hi;
      dLo = i64.lo;
    }
    add64(dHi, dLo, dodHi, dodLo);
    dHi = i64.hi;
    dLo = i64.lo;
    if (dHi < 0 || (dHi === 0 && dLo === 0)) return false; // timestamps must increase
    split64(this.t);
    add64(i64.hi, i64.lo, dHi, dLo);
    const t = join64(i64.hi, i64.lo);
    if (!Number.isSafeInteger(t)) return false;
    this.t = t;
    const delta = join64(dHi, dLo);
    this.deltaHuge = !Number.isSafeInteger(delta);
    this.delta = delta;
    this.deltaHi = dHi;
    this.deltaLo = dLo;
    return true;
  }

  private readValue(): boolean {
    const r = this.reader;
    if (r.readBit() === 0) return true; // same value as before
    let lead: number;
    let trail: number;
    if (r.readBit() === 0) {
      if (this.leading === NO_WINDOW) return false;
      lead = this.leading;
      trail = this.trailing;
    } else {
      lead = r.readBits(5);
      const sig = r.readBits(6);
      trail = 64 - lead - (sig === 0 ? 64 : sig);
      if (trail < 0) return false;
      this.leading = lead;
      this.trailing = trail;
    }
    const sig = 64 - lead - trail;
    let hi = 0;
    let lo: number;
    if (sig > 32) {
      hi = r.readBits(sig - 32);
      lo = r.readBits(32);
    } else {
      lo = r.readBits(sig);
    }
    // Shift the significant bits back into place: (hi, lo) <<= trail.
    if (trail >= 32) {
      hi = lo << (trail - 32);
      lo = 0;
    } else if (trail > 0) {
      hi = (hi << trail) | (lo >>> (32 - trail));
      lo <<= trail;
    }
    this.vHi = (this.vHi ^ hi) >>> 0;
    this.vLo = (this.vLo ^ lo) >>> 0;
    return true;
  }
}
