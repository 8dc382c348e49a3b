import { parseDurationMs, type DurationMs } from '../model/index.js';
import { SCENARIOS } from '../sim/index.js';

/**
 * A command-line usage error: exit status 2, the message printed with the top-level usage text,
 * or alone when `withUsage` is false (the message already says what would be valid, and a page of
 * commands would bury it).
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly withUsage = true,
  ) {
    super(message);
  }
}

/** The usage error of a `--scenario` value that names no built-in scenario: it lists the valid names. */
export function unknownScenarioError(name: string): UsageError {
  const names = ['demo', ...Object.keys(SCENARIOS), 'fleet-<N> (N from 1 to 5000)'];
  return new UsageError(`unknown --scenario ${JSON.stringify(name)}; valid scenarios: ${names.join(', ')} ('infersight sim --list' describes them)`, false);
}

const SIZE_UNITS: Record<string, number> = {
  B: 1, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, KIB: 1024, MIB: 1024 ** 2, GIB: 1024 ** 3, TIB: 1024 ** 4,
};

/** Parses a byte size such as `512MiB` or `10GB` (Prometheus' `--storage.tsdb.retention.size` units). */
export function parseBytes(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([A-Za-z]*)$/.exec(text.trim());
  const unit = SIZE_UNITS[(m?.[2] ?? '').toUpperCase() || 'B'];
  if (!m || unit === undefined) throw new UsageError(`invalid size ${JSON.stringify(text)}: want a number with B, KB, MB, GB, TB, KiB, MiB, GiB or TiB`);
  return Math.floor(Number(m[1]) * unit);
}

/**
 * Parses a Prometheus duration (`15d`, `1h30m`) exactly as Prometheus' own duration flags do
 * (`model.ParseDuration`: units in decreasing order, so `1s1h` is refused), or throws a
 * `UsageError` naming the flag.
 */
export function parseDurationFlag(flag: string, text: string): DurationMs {
  const ms = parseDurationMs(text);
  if (ms === undefined) throw new UsageError(`invalid duration for --${flag}: ${JSON.stringify(text)} (examples: 15d, 12h, 30m)`);
  return ms;
}

/** A flag that must be a positive number (an integer when `integer`); UsageError otherwise. */
export function parsePositiveFlag(flag: string, text: string, integer: boolean): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isSafeInteger(n))) {
    throw new UsageError(`invalid --${flag} ${JSON.stringify(text)}: want a positive ${integer ? 'integer' : 'number'}`);
  }
  return n;
}
