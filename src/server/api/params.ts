/**
 * Request parameter parsing with the rules and error texts of Prometheus' API
 * (web/api/v1/api.go: parseTime, parseDuration; Go's strconv.ParseFloat and time.Parse with
 * RFC 3339). Times become Unix milliseconds, durations nanoseconds (as Go's time.Duration).
 */
import { MAX_TIME_MS, MIN_TIME_MS, goQuote, parseDurationMs, parseGoFloat, type UnixMs } from '../../model/index.js';

export { goQuote };

/** A request the API refuses; `errorType` and `message` go into Prometheus' error envelope. */
export class ApiError extends Error {
  constructor(
    readonly errorType: 'bad_data' | 'unavailable' | 'internal' | 'not_found',
    message: string,
    /** Close the connection after the answer (the request body was not read to its end). */
    readonly closeConnection = false,
    /** The HTTP status when it is not the one of `errorType` (408 for a body that came too slowly). */
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** `invalid parameter "<name>": <detail>`, Prometheus' wording for a parameter it cannot use. */
export function invalidParam(name: string, detail: string): ApiError {
  return new ApiError('bad_data', `invalid parameter ${goQuote(name)}: ${detail}`);
}


/** Go's `math.Round`: half away from zero. */
function goRound(x: number): number {
  return x < 0 ? -Math.floor(-x + 0.5) : Math.floor(x + 0.5);
}

/** Prometheus' `minTime` as RFC 3339 (what clients such as client_golang send for "no lower bound"). */
export const MIN_TIME_FORMATTED = '-292273086-05-16T16:47:06Z';
/** Prometheus' `maxTime` as RFC 3339 ("no upper bound"). */
export const MAX_TIME_FORMATTED = '292277025-08-18T07:12:54.999999999Z';

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function parseRfc3339Ms(s: string): UnixMs | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, sec] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(mo, y) || h > 23 || mi > 59 || sec > 59) return undefined;
  let offsetMin = 0;
  if (m[8] !== 'Z') {
    const oh = Number(m[8].slice(1, 3));
    const om = Number(m[8].slice(4, 6));
    if (oh > 24 || om > 59) return undefined;
    offsetMin = (m[8][0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const fracMs = m[7] === undefined ? 0 : Math.floor(Number(m[7].slice(0, 9).padEnd(9, '0')) / 1e6);
  return (((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi - offsetMin) * 60 + sec) * 1000 + fracMs;
}

/**
 * Parses a time parameter as Prometheus does: Unix seconds as a float (rounded to the
 * millisecond), or RFC 3339 with optional fractional seconds, or Prometheus' own min/max time
 * strings. Throws `cannot parse "<s>" to a valid timestamp`. Unlike Prometheus, which quietly
 * evaluates NaN, ±Inf and times beyond ±292 million years as garbage instants, such times are
 * refused: Infersight's times are safe-integer milliseconds (about ±285,000 years).
 */
export function parseTime(s: string): UnixMs {
  const fail = () => new Error(`cannot parse ${goQuote(s)} to a valid timestamp`);
  const f = parseGoFloat(s);
  if (f !== undefined) {
    if (!Number.isFinite(f)) throw fail();
    let sec = Math.trunc(f);
    let nsec = Math.trunc((goRound((f - sec) * 1000) / 1000) * 1e9);
    if (nsec < 0) {
      sec -= 1;
      nsec += 1e9;
    } else if (nsec >= 1e9) {
      sec += 1;
      nsec -= 1e9;
    }
    const ms = sec * 1000 + Math.floor(nsec / 1e6);
    if (!Number.isSafeInteger(ms)) throw fail();
    return ms;
  }
  if (s === MIN_TIME_FORMATTED) return MIN_TIME_MS;
  if (s === MAX_TIME_FORMATTED) return MAX_TIME_MS;
  const ms = parseRfc3339Ms(s);
  if (ms === undefined || !Number.isSafeInteger(ms)) throw fail();
  return ms;
}

/** 2^63, the first value past Go's int64 range (as a float64, which is how Go compares it). */
const MAX_INT64 = 2 ** 63;

/**
 * Parses a duration parameter (`step`, `timeout`, `lookback_delta`) as Prometheus does: float
 * seconds, or a Prometheus duration (`1h30m`, `500ms`; units in descending order, each once).
 * Returns nanoseconds (Go's time.Duration; NaN stays NaN, which no check accepts). Throws
 * `cannot parse "<s>" to a valid duration` (with `. It overflows int64` past ±292 years).
 */
export function parseDurationNs(s: string): number {
  const f = parseGoFloat(s);
  if (f !== undefined) {
    const ns = f * 1e9;
    if (ns > MAX_INT64 || ns < -MAX_INT64) throw new Error(`cannot parse ${goQuote(s)} to a valid duration. It overflows int64`);
    return Math.trunc(ns);
  }
  // model.ParseDuration (src/model), which also refuses what overflows int64 nanoseconds.
  const ms = parseDurationMs(s);
  if (ms === undefined) throw new Error(`cannot parse ${goQuote(s)} to a valid duration`);
  return ms * 1e6;
}

/** Nanoseconds to whole milliseconds, truncated as Prometheus' `durationMilliseconds`. */
export function nsToMs(ns: number): number {
  return Math.trunc(ns / 1e6);
}
