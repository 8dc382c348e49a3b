import type { DurationMs } from '../../model/index.js';

/**
 * The conversions between a PromQL duration literal's milliseconds and the float seconds
 * Prometheus gives it, computed as Go does so that every float matches bit for bit. Durations
 * themselves are parsed and printed by `src/model` (`parseDuration`, `formatDuration`).
 */

/**
 * The seconds value Prometheus gives a duration token (`time.Duration.Seconds()`), computed the
 * same way so that the float matches bit for bit.
 */
export function durationMsToSeconds(ms: DurationMs): number {
  const sec = Math.trunc(ms / 1000);
  return sec + ((ms - sec * 1000) * 1e6) / 1e9;
}

/**
 * Milliseconds of a seconds value as `time.Duration(math.Round(s * 1e9))` then
 * `Duration / time.Millisecond`: how Prometheus turns a range, step or offset literal into time.
 */
export function secondsToMs(seconds: number): DurationMs {
  const ns = seconds * 1e9;
  const rounded = ns < 0 ? -Math.round(-ns) : Math.round(ns);
  return Math.trunc(rounded / 1e6);
}
