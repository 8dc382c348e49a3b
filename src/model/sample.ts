import type { UnixMs } from './time.js';

/** One float sample: a timestamp in milliseconds and a float64 value. */
export interface Sample {
  tMs: UnixMs;
  value: number;
}

// Prometheus' staleness marker is one specific NaN bit pattern (0x7ff0000000000002). Ordinary
// arithmetic produces the canonical NaN (0x7ff8000000000001 in Go, 0x7ff8000000000000 in JS), so
// the marker survives only where code copies the bits. Every codec in Infersight copies bits.
//
// A V8 pitfall: plain JavaScript arrays of numbers (`number[]` with double elements) canonicalize
// every NaN they store, which turns the marker into an ordinary NaN. Object properties, typed
// arrays and DataViews keep the bits. Never keep sample values in a `number[]`; use Float64Array.
const scratch = new DataView(new ArrayBuffer(8));
scratch.setUint32(0, 0x7ff00000);
scratch.setUint32(4, 0x00000002);

/** The staleness marker value. Compare with `isStaleNaN`, never with `===` (NaN !== NaN). */
export const STALE_NAN: number = scratch.getFloat64(0);

/** The high and low 32 bits of the staleness marker, for codecs that compare bit patterns. */
export const STALE_NAN_HI = 0x7ff00000;
export const STALE_NAN_LO = 0x00000002;

/** Reports whether `value` carries the exact bit pattern of the staleness marker. */
export function isStaleNaN(value: number): boolean {
  if (value === value) return false; // fast path: not NaN at all
  scratch.setFloat64(0, value);
  return scratch.getUint32(0) === STALE_NAN_HI && scratch.getUint32(4) === STALE_NAN_LO;
}
