import type { Vector } from '../value.js';
import { sample, scalarResult } from './args.js';
import type { InstantFunction } from './types.js';

/**
 * Time functions: `time()`, `timestamp()`, the query-frame scalars `start()`, `end()`, `range()`,
 * `step()`, and the calendar functions (`year`, `month`, `day_of_month`, `day_of_year`,
 * `day_of_week`, `days_in_month`, `hour`, `minute`) in UTC, proleptic Gregorian like Go's `time`.
 */

/** `time()`: the evaluation time in seconds. */
export const time: InstantFunction = (_vectors, ctx) => scalarResult(ctx.tMs, ctx.tMs / 1000);

/** `start()`: the query's start time in seconds. */
export const start: InstantFunction = (_vectors, ctx) => scalarResult(ctx.tMs, ctx.queryStartMs / 1000);

/** `end()`: the query's end time in seconds. */
export const end: InstantFunction = (_vectors, ctx) => scalarResult(ctx.tMs, ctx.queryEndMs / 1000);

/** `range()`: the query's end minus start, in seconds (0 for an instant query). */
export const range: InstantFunction = (_vectors, ctx) => scalarResult(ctx.tMs, (ctx.queryEndMs - ctx.queryStartMs) / 1000);

/** `step()`: the query's resolution step in seconds (0 for an instant query). */
export const step: InstantFunction = (_vectors, ctx) => scalarResult(ctx.tMs, ctx.queryStepMs / 1000);

/**
 * `timestamp(v)`: each sample's timestamp in seconds. For a plain selector argument the evaluator
 * hands in samples whose `t` is the stored sample's own time; otherwise `t` is the step time.
 */
export const timestamp: InstantFunction = (vectors, ctx) => {
  const v = vectors[0];
  const out: Vector = new Array<Vector[number]>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = sample(v[i].metric, ctx.tMs, v[i].t / 1000, true);
  return out;
};

/** A civil date and time of day in UTC. */
export interface CivilTime {
  year: number;
  /** 1–12. */
  month: number;
  /** 1–31. */
  day: number;
  /** 1–366. */
  yearDay: number;
  /** 0 (Sunday) – 6. */
  weekday: number;
  hour: number;
  minute: number;
}

const SECONDS_PER_DAY = 86400;
const MIN_INT64 = -(2 ** 63);

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Splits integral Unix seconds into whole days and the second of the day. */
function splitDays(sec: number): { days: number; secOfDay: number } {
  if (Math.abs(sec) <= Number.MAX_SAFE_INTEGER) {
    let days = Math.floor(sec / SECONDS_PER_DAY);
    let rem = sec - days * SECONDS_PER_DAY;
    if (rem < 0) {
      days--;
      rem += SECONDS_PER_DAY;
    } else if (rem >= SECONDS_PER_DAY) {
      days++;
      rem -= SECONDS_PER_DAY;
    }
    return { days, secOfDay: rem };
  }
  const big = BigInt(sec);
  let days = big / 86400n;
  let rem = big % 86400n;
  if (rem < 0n) {
    days -= 1n;
    rem += 86400n;
  }
  return { days: Number(days), secOfDay: Number(rem) };
}

/** The UTC calendar fields of integral Unix time `sec` (seconds). */
export function civilFromUnixSeconds(sec: number): CivilTime {
  const { days, secOfDay } = splitDays(sec);
  // civil_from_days
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return {
    year,
    month,
    day,
    yearDay: days - daysFromCivil(year, 1, 1) + 1,
    weekday: (((days + 4) % 7) + 7) % 7,
    hour: Math.floor(secOfDay / 3600),
    minute: Math.floor((secOfDay % 3600) / 60),
  };
}

/** The number of days in `month` (1–12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Go's `int64(f)` for a sample value: truncation toward zero; NaN, infinities and values out of
 * the int64 range give the minimum int64, as on amd64 (where Prometheus' reference runs).
 */
function goInt64(f: number): number {
  if (Number.isNaN(f) || f >= 2 ** 63 || f < MIN_INT64) return MIN_INT64;
  return Math.trunc(f);
}

/**
 * A calendar function: without an argument it reads the evaluation time (whole seconds, Go's
 * truncating division) and returns a scalar-like sample; with one it maps every sample's value
 * (Unix seconds) and drops the metric name.
 */
function dateFunction(field: (c: CivilTime) => number): InstantFunction {
  return (vectors, ctx) => {
    if (vectors.length === 0) {
      return scalarResult(ctx.tMs, field(civilFromUnixSeconds(Math.trunc(ctx.tMs / 1000))));
    }
    const v = vectors[0];
    const out: Vector = new Array<Vector[number]>(v.length);
    for (let i = 0; i < v.length; i++) {
      out[i] = sample(v[i].metric, ctx.tMs, field(civilFromUnixSeconds(goInt64(v[i].f))), true);
    }
    return out;
  };
}

/** The calendar functions, by PromQL name. */
export const DATE_FUNCTIONS: ReadonlyMap<string, InstantFunction> = new Map<string, InstantFunction>([
  ['year', dateFunction((c) => c.year)],
  ['month', dateFunction((c) => c.month)],
  ['day_of_month', dateFunction((c) => c.day)],
  ['day_of_year', dateFunction((c) => c.yearDay)],
  ['day_of_week', dateFunction((c) => c.weekday)],
  ['days_in_month', dateFunction((c) => daysInMonth(c.year, c.month))],
  ['hour', dateFunction((c) => c.hour)],
  ['minute', dateFunction((c) => c.minute)],
]);
