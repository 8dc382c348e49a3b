/**
 * Block ids: 26 characters of Crockford base32 laid out like a ULID (48-bit millisecond time,
 * then 80 random bits), so that ids sort by creation time as plain strings. Time and randomness
 * are injected; nothing here reads the wall clock.
 */
import type { Clock, UnixMs } from '../../model/index.js';

/** A source of uniformly distributed floats in [0, 1), like `Math.random` or a seeded PRNG. */
export type RandomSource = () => number;

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_CHARS = 10;
const ID_LENGTH = 26;
const MAX_ID_TIME_MS = 2 ** 48 - 1;
const ID_RE = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

/**
 * Returns a new block id for the current time of `clock`, drawing 16 characters from `random`.
 * Throws a RangeError when the clock reads a time outside [0, 2^48) ms.
 */
export function newBlockId(clock: Clock, random: RandomSource): string {
  let t = clock();
  if (!Number.isSafeInteger(t) || t < 0 || t > MAX_ID_TIME_MS) {
    throw new RangeError(`block id: time ${t} ms is outside [0, 2^48)`);
  }
  const chars: string[] = new Array<string>(ID_LENGTH);
  for (let i = TIME_CHARS - 1; i >= 0; i--) {
    const digit = t % 32;
    chars[i] = ALPHABET[digit];
    t = (t - digit) / 32;
  }
  for (let i = TIME_CHARS; i < ID_LENGTH; i++) {
    chars[i] = ALPHABET[Math.floor(random() * 32) & 31];
  }
  return chars.join('');
}

/** Reports whether `name` is a well-formed block id (and so names a block directory). */
export function isBlockId(name: string): boolean {
  return ID_RE.test(name);
}

/** Decodes the creation time embedded in a well-formed block id. */
export function blockIdTimeMs(id: string): UnixMs {
  let t = 0;
  for (let i = 0; i < TIME_CHARS; i++) t = t * 32 + ALPHABET.indexOf(id[i]);
  return t;
}
