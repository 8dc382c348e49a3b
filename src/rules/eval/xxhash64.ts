/**
 * xxHash64 with seed 0 (Yann Collet's algorithm, as `github.com/cespare/xxhash` computes it),
 * over the UTF-8 bytes of a string. Prometheus hashes a label set with it, and the rule manager
 * derives each group's evaluation offset from that hash, so Infersight needs the same 64 bits to
 * evaluate a group at the same instants Prometheus would. It runs once per group, so BigInt
 * arithmetic is fast enough and keeps the code readable.
 */

const MASK = (1n << 64n) - 1n;
const P1 = 11400714785074694791n;
const P2 = 14029467366897019727n;
const P3 = 1609587929392839161n;
const P4 = 9650029242287828579n;
const P5 = 2870177450012600261n;

const rotl = (x: bigint, r: bigint): bigint => ((x << r) | (x >> (64n - r))) & MASK;
const mul = (a: bigint, b: bigint): bigint => (a * b) & MASK;

function round(acc: bigint, lane: bigint): bigint {
  return mul(rotl((acc + mul(lane, P2)) & MASK, 31n), P1);
}

function mergeRound(acc: bigint, val: bigint): bigint {
  return (mul(acc ^ round(0n, val), P1) + P4) & MASK;
}

function u64(b: Uint8Array, i: number): bigint {
  let v = 0n;
  for (let k = 7; k >= 0; k--) v = (v << 8n) | BigInt(b[i + k]);
  return v;
}

function u32(b: Uint8Array, i: number): bigint {
  return BigInt((b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0);
}

/** The xxHash64 (seed 0) of `bytes`, as an unsigned 64-bit BigInt. */
export function xxhash64(bytes: Uint8Array): bigint {
  const n = bytes.length;
  let i = 0;
  let h: bigint;
  if (n >= 32) {
    let v1 = (P1 + P2) & MASK;
    let v2 = P2;
    let v3 = 0n;
    let v4 = (MASK + 1n - P1) & MASK;
    for (; i + 32 <= n; i += 32) {
      v1 = round(v1, u64(bytes, i));
      v2 = round(v2, u64(bytes, i + 8));
      v3 = round(v3, u64(bytes, i + 16));
      v4 = round(v4, u64(bytes, i + 24));
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & MASK;
    h = mergeRound(h, v1);
    h = mergeRound(h, v2);
    h = mergeRound(h, v3);
    h = mergeRound(h, v4);
  } else {
    h = P5;
  }
  h = (h + BigInt(n)) & MASK;
  for (; i + 8 <= n; i += 8) h = (mul(rotl(h ^ round(0n, u64(bytes, i)), 27n), P1) + P4) & MASK;
  if (i + 4 <= n) {
    h = (mul(rotl(h ^ mul(u32(bytes, i), P1), 23n), P2) + P3) & MASK;
    i += 4;
  }
  for (; i < n; i++) h = mul(rotl(h ^ mul(BigInt(bytes[i]), P5), 11n), P1);
  h ^= h >> 33n;
  h = mul(h, P2);
  h ^= h >> 29n;
  h = mul(h, P3);
  h ^= h >> 32n;
  return h;
}

/** The xxHash64 of a string's UTF-8 bytes. */
export function xxhash64String(s: string): bigint {
  return xxhash64(new TextEncoder().encode(s));
}
