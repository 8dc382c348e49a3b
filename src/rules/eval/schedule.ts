/**
 * Prometheus' evaluation-time alignment (rules/group.go `EvalTimestamp`): every group is
 * evaluated at `k × interval + offset`, where the offset is the xxHash64 of the group's
 * `{file, name}` label set modulo the interval (in nanoseconds, as Go computes it). Groups thus
 * spread over the interval instead of all running at once, and the same group runs at the same
 * instants in Infersight as in Prometheus.
 */
import type { DurationMs, UnixMs } from '../../model/index.js';
import { xxhash64 } from './xxhash64.js';

const SEP = 0xff;

/** The hash Prometheus gives a group: `labels.Labels{file, name}.Hash()` (names and values, each followed by 0xff). */
export function groupHash(file: string, name: string): bigint {
  const enc = new TextEncoder();
  const parts = ['file', file, 'name', name].map((s) => enc.encode(s));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length + 1, 0));
  let i = 0;
  for (const p of parts) {
    bytes.set(p, i);
    i += p.length;
    bytes[i++] = SEP;
  }
  return xxhash64(bytes);
}

/** The group's offset inside its interval, in nanoseconds (kept exact: it decides which tick is "now"). */
export function groupOffsetNs(file: string, name: string, intervalMs: DurationMs): bigint {
  return groupHash(file, name) % (BigInt(intervalMs) * 1_000_000n);
}

/**
 * The latest evaluation instant of the group at or before `nowMs`, in ms (Go's time truncated to
 * the millisecond, as Prometheus writes sample timestamps). The next ones follow every interval.
 */
export function evalTimestampMs(file: string, name: string, intervalMs: DurationMs, nowMs: UnixMs): UnixMs {
  const intervalNs = BigInt(intervalMs) * 1_000_000n;
  const offset = groupOffsetNs(file, name, intervalMs);
  const adj = BigInt(nowMs) * 1_000_000n - offset;
  let rem = adj % intervalNs;
  if (rem < 0n) rem += intervalNs; // Go's % keeps the sign; only pre-1970 times differ, and floor is what the tick means
  const ns = adj - rem + offset;
  const ms = ns / 1_000_000n; // truncates toward zero like timestamp.FromTime for positive times
  return Number(ns < 0n && ns % 1_000_000n !== 0n ? ms - 1n : ms);
}
