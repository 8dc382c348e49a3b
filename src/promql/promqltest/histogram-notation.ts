import { parseSeriesNumber } from './go-syntax.js';

/**
 * A native-histogram literal of the series notation, `{{schema:0 sum:5 count:4 buckets:[1 2 1]}}`,
 * parsed but not interpreted: Infersight stores float samples only (native histograms are a later
 * step, see docs/goals.md), so loads skip these values and comparisons treat them as "a histogram was
 * expected". Field names follow the notation's keys.
 */
export interface HistogramNotation {
  /** `schema:` (default 0; −53 means custom buckets). */
  readonly schema: number;
  readonly sum: number;
  readonly count: number;
  /** `z_bucket:` — the zero bucket's count. */
  readonly zeroCount: number;
  /** `z_bucket_w:` — the zero threshold. */
  readonly zeroThreshold: number;
  /** `buckets:[…]` — absolute counts of consecutive positive buckets starting at `offset`. */
  readonly buckets: readonly number[];
  readonly offset: number;
  /** `n_buckets:[…]` with `n_offset:` — the same for negative buckets. */
  readonly negativeBuckets: readonly number[];
  readonly negativeOffset: number;
  /** `custom_values:[…]` — NHCB upper bounds. */
  readonly customValues: readonly number[];
  readonly counterResetHint: 'unknown' | 'reset' | 'not_reset' | 'gauge';
  /** True when `counter_reset_hint:` was written (only then do comparisons look at it). */
  readonly counterResetHintSet: boolean;
}

const SCALAR_KEYS = ['schema', 'sum', 'count', 'z_bucket', 'z_bucket_w', 'offset', 'n_offset'] as const;
const LIST_KEYS = ['buckets', 'n_buckets', 'custom_values'] as const;
const HINTS = ['unknown', 'reset', 'not_reset', 'gauge'] as const;

/**
 * Parses the text between `{{` and `}}`: `key:value` items separated by spaces, where a value is a
 * number, a `[n n …]` list, or (for `counter_reset_hint`) a word. Throws an `Error` naming the
 * offending item.
 */
export function parseHistogramNotation(body: string): HistogramNotation {
  const scalars = new Map<string, number>();
  const lists = new Map<string, number[]>();
  let hint: HistogramNotation['counterResetHint'] = 'unknown';
  let hintSet = false;
  const re = /\s*([a-z_]+)\s*:\s*(\[[^\]]*\]|[^\s[\]]+)/gy;
  let pos = 0;
  for (let m = re.exec(body); m !== null; m = re.exec(body)) {
    pos = re.lastIndex;
    const [, key, raw] = m;
    if (key === 'counter_reset_hint') {
      if (!(HINTS as readonly string[]).includes(raw)) throw new Error(`invalid counter_reset_hint ${JSON.stringify(raw)}`);
      hint = raw as HistogramNotation['counterResetHint'];
      hintSet = true;
    } else if ((LIST_KEYS as readonly string[]).includes(key)) {
      if (!raw.startsWith('[')) throw new Error(`histogram key ${key} needs a [list]`);
      lists.set(key, raw.slice(1, -1).trim().split(/\s+/).filter((x) => x !== '').map((x) => histogramNumber(x, key)));
    } else if ((SCALAR_KEYS as readonly string[]).includes(key)) {
      scalars.set(key, histogramNumber(raw, key));
    } else {
      throw new Error(`unknown histogram key ${JSON.stringify(key)}`);
    }
  }
  if (body.slice(pos).trim() !== '') throw new Error(`invalid histogram description ${JSON.stringify(body.slice(pos).trim())}`);
  return {
    schema: scalars.get('schema') ?? 0,
    sum: scalars.get('sum') ?? 0,
    count: scalars.get('count') ?? 0,
    zeroCount: scalars.get('z_bucket') ?? 0,
    zeroThreshold: scalars.get('z_bucket_w') ?? 0,
    buckets: lists.get('buckets') ?? [],
    offset: scalars.get('offset') ?? 0,
    negativeBuckets: lists.get('n_buckets') ?? [],
    negativeOffset: scalars.get('n_offset') ?? 0,
    customValues: lists.get('custom_values') ?? [],
    counterResetHint: hint,
    counterResetHintSet: hintSet,
  };
}

function histogramNumber(text: string, key: string): number {
  const v = parseSeriesNumber(text);
  if (v === undefined) throw new Error(`invalid number ${JSON.stringify(text)} for histogram key ${key}`);
  return v;
}
