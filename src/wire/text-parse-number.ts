/**
 * Number and timestamp tokens of the text exposition formats, as pure functions over the source
 * string (split from text-parse.ts). `fail` raises the parser's positioned error.
 */

/** Raises a parse error at character offset `at`; never returns. */
export type Fail = (detail: string, at: number) => never;

const PLUS = 43;
const MINUS = 45;
const DOT = 46;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const POW10 = new Float64Array(23);
for (let i = 0, v = 1; i < 23; i++, v *= 10) POW10[i] = v;


/**
 * Parses a value: decimal floats with optional exponent, `Inf`/`Infinity` with optional sign
 * and `NaN` (case-insensitive), as Go's strconv.ParseFloat without hex floats or underscores
 * (Prometheus' rules for both formats). Decimals with at most 15 significant digits and a
 * decimal exponent within ±22 take an exact fast path that allocates nothing.
 */
export function parseFloatToken(t: string, start: number, end: number, what: string, fail: Fail): number {
  let p = start;
  let c = t.charCodeAt(p);
  let neg = false;
  if (c === PLUS || c === MINUS) {
    neg = c === MINUS;
    p++;
    c = t.charCodeAt(p);
  }
  if (!isDigit(c) && c !== DOT) {
    const word = t.slice(p, end).toLowerCase();
    if (word === 'inf' || word === 'infinity') return neg ? -Infinity : Infinity;
    if (word === 'nan' && p === start) return NaN;
    return badNumber(t, start, end, what, fail);
  }
  let m = 0;
  let sig = 0;
  let digits = 0;
  let scale = 0;
  for (; p < end && isDigit((c = t.charCodeAt(p))); p++, digits++) {
    if (m > 0 || c !== 48) {
      if (sig < 15) m = m * 10 + (c - 48);
      else scale++;
      sig++;
    }
  }
  if (p < end && t.charCodeAt(p) === DOT) {
    for (p++; p < end && isDigit((c = t.charCodeAt(p))); p++, digits++) {
      if (m > 0 || c !== 48) {
        if (sig < 15) {
          m = m * 10 + (c - 48);
          scale--;
        }
        sig++;
      } else scale--;
    }
  }
  if (digits === 0) return badNumber(t, start, end, what, fail);
  if (p < end && (t.charCodeAt(p) | 0x20) === 101) {
    p++;
    let eneg = false;
    c = t.charCodeAt(p);
    if (c === PLUS || c === MINUS) {
      eneg = c === MINUS;
      p++;
    }
    const expAt = p;
    let x = 0;
    for (; p < end && isDigit((c = t.charCodeAt(p))); p++) if (x < 100000) x = x * 10 + (c - 48);
    if (p === expAt) return badNumber(t, start, end, what, fail);
    scale += eneg ? -x : x;
  }
  if (p !== end) return badNumber(t, start, end, what, fail);
  if (sig > 15 || scale > 22 || scale < -22) {
    const slow = Number(t.slice(start, end)); // the syntax is validated above
    // Go's ParseFloat (and so Prometheus) rejects overflow; underflow to zero is fine.
    if (slow === Infinity || slow === -Infinity) fail(`${what} out of range`, start);
    return slow;
  }
  const v = scale >= 0 ? m * POW10[scale] : m / POW10[-scale];
  return neg ? -v : v;
}

function badNumber(t: string, start: number, end: number, what: string, fail: Fail): never {
  return fail(
    `invalid ${what} ${JSON.stringify(t.slice(start, Math.min(end, start + 64)))}: expected a float, NaN, +Inf or -Inf`,
    start,
  );
}

/** 0.0.4 timestamps: an integer count of milliseconds, optionally negative, within ±2^53. */
export function parseIntMsToken(t: string, start: number, end: number, fail: Fail): number {
  let p = start;
  const neg = t.charCodeAt(p) === MINUS;
  if (neg) p++;
  if (p === end) fail('invalid timestamp: expected integer milliseconds', start);
  let v = 0;
  for (; p < end; p++) {
    const c = t.charCodeAt(p);
    if (!isDigit(c)) {
      fail(`invalid timestamp ${JSON.stringify(t.slice(start, Math.min(end, start + 64)))}: expected integer milliseconds`, start);
    }
    v = v * 10 + (c - 48);
    if (v > Number.MAX_SAFE_INTEGER) fail('timestamp out of range: more than 2^53 milliseconds', start);
  }
  return neg && v !== 0 ? -v : v;
}

/**
 * OpenMetrics timestamps: float seconds (no Inf/NaN) converted to milliseconds exactly by
 * shifting the decimal digits, truncating sub-millisecond digits toward zero as Prometheus does.
 */
export function parseSecondsAsMsToken(t: string, start: number, end: number, what: string, fail: Fail): number {
  const bad = (): never =>
    fail(`invalid ${what} ${JSON.stringify(t.slice(start, Math.min(end, start + 64)))}: expected seconds as a decimal number`, start);
  let p = start;
  let c = t.charCodeAt(p);
  const neg = c === MINUS;
  if (c === PLUS || c === MINUS) p++;
  const intAt = p;
  while (p < end && isDigit(t.charCodeAt(p))) p++;
  const intEnd = p;
  let fracAt = p;
  if (p < end && t.charCodeAt(p) === DOT) {
    fracAt = ++p;
    while (p < end && isDigit(t.charCodeAt(p))) p++;
  }
  const fracEnd = p;
  if (intEnd === intAt && fracEnd === fracAt) bad();
  let x = 0;
  if (p < end && (t.charCodeAt(p) | 0x20) === 101) {
    p++;
    c = t.charCodeAt(p);
    const eneg = c === MINUS;
    if (c === PLUS || c === MINUS) p++;
    const expAt = p;
    for (; p < end && isDigit((c = t.charCodeAt(p))); p++) if (x < 100000) x = x * 10 + (c - 48);
    if (p === expAt) bad();
    if (eneg) x = -x;
  }
  if (p !== end) bad();
  let digits = t.slice(intAt, intEnd) + t.slice(fracAt, fracEnd);
  let lead = 0;
  while (lead < digits.length && digits.charCodeAt(lead) === 48) lead++;
  digits = digits.slice(lead);
  const shift = x - (fracEnd - fracAt) + 3;
  let ms: number;
  if (digits === '') ms = 0;
  else if (shift >= 0) {
    if (digits.length + shift > 16) fail(`${what} out of range`, start);
    ms = Number(digits) * POW10[shift];
  } else {
    const keep = digits.length + shift;
    ms = keep <= 0 ? 0 : Number(digits.slice(0, keep));
  }
  if (!Number.isSafeInteger(ms)) fail(`${what} out of range`, start);
  return neg && ms !== 0 ? -ms : ms;
}
