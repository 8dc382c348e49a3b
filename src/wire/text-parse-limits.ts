/**
 * The scrape limits the text parser checks on exposed labels (text-parse.ts): their types, error
 * and Prometheus-worded messages.
 */

/**
 * Limits a parser enforces line by line, so that a hostile exposition fails at its first
 * offending line instead of being read whole. Each is off when 0 or absent. Counts and lengths
 * follow Prometheus' `label_limit`, `label_name_length_limit` and `label_value_length_limit`
 * on the exposed labels: `__name__` counts as a label (its value is the metric name), labels with
 * an empty value do not (they are dropped), lengths are in UTF-8 bytes. Exemplar labels are
 * not limited.
 */
export interface ExpositionLimits {
  readonly labelLimit?: number;
  readonly labelNameLengthLimit?: number;
  readonly labelValueLengthLimit?: number;
}

/** A sample line over one of the `ExpositionLimits`; the message uses Prometheus' wording. */
export class ExpositionLimitError extends Error {
  /** Creates the error; `limit` names the configuration field that was exceeded. */
  constructor(
    readonly limit: 'label_limit' | 'label_name_length_limit' | 'label_value_length_limit',
    message: string,
  ) {
    super(message);
    this.name = 'ExpositionLimitError';
  }
}

/** The UTF-8 length of `s` (lone surrogates count 3, as `TextEncoder` writes U+FFFD). */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a pair: 2 units, 4 bytes
      i++;
    } else n += 2;
  }
  return n;
}

/** The error for a label value (or metric name, as `__name__`'s value) over `labelValueLengthLimit`. */
export function labelValueTooLong(l: Required<ExpositionLimits>, metric: string, name: string, value: string, length: number): ExpositionLimitError {
  return new ExpositionLimitError(
    'label_value_length_limit',
    `label_value_length_limit exceeded (metric: ${metric.slice(0, 50)}, label name: ${name.slice(0, 50)}, value: ${JSON.stringify(value.slice(0, 50))}, length: ${length}, limit: ${l.labelValueLengthLimit})`,
  );
}

/**
 * Checks one exposed label of a sample of `metric` with a non-empty value, the `kept`-th label
 * with a value (`__name__` is the first); throws `ExpositionLimitError` when it is over a limit.
 */
export function checkExposedLabel(l: Required<ExpositionLimits>, metric: string, name: string, value: string, kept: number): void {
  const met = metric.slice(0, 50);
  if (l.labelLimit > 0 && kept > l.labelLimit) {
    // The rest of the line is not read, so the exact count is unknown.
    throw new ExpositionLimitError('label_limit', `label_limit exceeded (metric: ${met}, number of labels: more than ${l.labelLimit}, limit: ${l.labelLimit})`);
  }
  const nl = l.labelNameLengthLimit;
  if (nl > 0 && name.length > nl) {
    // Label names are ASCII: characters are bytes.
    throw new ExpositionLimitError(
      'label_name_length_limit',
      `label_name_length_limit exceeded (metric: ${met}, label name: ${name.slice(0, 50)}, length: ${name.length}, limit: ${nl})`,
    );
  }
  // A UTF-16 unit is 1 to 3 UTF-8 bytes (a surrogate pair 4 for 2): count bytes only when it matters.
  const vl = l.labelValueLengthLimit;
  if (vl > 0 && value.length * 3 > vl) {
    const len = utf8Length(value);
    if (len > vl) throw labelValueTooLong(l, metric, name, value, len);
  }
}
