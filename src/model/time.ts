/**
 * Time units used across Infersight. They are plain numbers at run time; the aliases make
 * the unit part of every public signature so that a bare `number` never means "time".
 */

/** Milliseconds since the Unix epoch (Prometheus' sample timestamp unit). Always an integer. */
export type UnixMs = number;

/** A duration in milliseconds. Always an integer. */
export type DurationMs = number;

/** A function returning the current time; injected everywhere so tests control the clock. */
export type Clock = () => UnixMs;

/** The wall clock, for production wiring only. */
export const systemClock: Clock = () => Date.now();

/** The smallest and largest timestamps Infersight stores: the range where every integer is exact in a float64. */
export const MIN_TIME_MS: UnixMs = Number.MIN_SAFE_INTEGER;
export const MAX_TIME_MS: UnixMs = Number.MAX_SAFE_INTEGER;
