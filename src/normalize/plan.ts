import { Labels, METRIC_NAME_LABEL } from '../model/index.js';
import {
  CONVERSIONS,
  IDENTITY_LABELS,
  MAPPING_ROWS,
  droppedSeries,
  SOURCES,
  SOURCE_IDS,
  type DroppedSeries,
  type MappingRow,
  type SourceId,
  type SourceInfo,
} from '../semconv/index.js';

/**
 * One series the normalizer writes for an incoming series, with everything the hot path needs
 * precomputed: the output labels, the value transform, and the inner storage's ref (cached
 * after the first append; mutable on purpose).
 */
export interface OutputPlan {
  readonly labels: Labels;
  /** `value * multiply / divide`; 1 and 1 pass the value through untouched. */
  readonly multiply: number;
  readonly divide: number;
  /** When set, the output value is this constant (a number read from a label), NaN excepted. */
  readonly constant: number | undefined;
  /** True when DCGM's "blank" sentinels must be dropped instead of written. */
  readonly dropBlank: boolean;
  innerRef: number;
}

/** What `planSeries` needs besides the labels. */
export interface PlanOptions {
  /** Also write the engine-native series unchanged. */
  readonly keepRaw: boolean;
  /** The engine behind every series of this appendable, when the caller knows it. */
  readonly engine: SourceId | undefined;
  /** Labels whose values may name the engine (`job="djl-lmi"`), checked in order. */
  readonly hintLabels: readonly string[];
}

/**
 * The normalizer's lookup table, by exposed series name: the mapping rows, and the series of the
 * metrics the catalog leaves out on purpose (`DROPPED_METRICS`).
 */
export interface MappingIndex {
  readonly rows: ReadonlyMap<string, readonly MappingRow[]>;
  readonly dropped: ReadonlyMap<string, DroppedSeries>;
}

/** Builds the lookup table from the catalog's mapping rows and dropped series. */
export function buildMappingIndex(rows: readonly MappingRow[] = MAPPING_ROWS, dropped: readonly DroppedSeries[] = droppedSeries()): MappingIndex {
  const index = new Map<string, MappingRow[]>();
  for (const row of rows) {
    const list = index.get(row.from);
    if (list === undefined) index.set(row.from, [row]);
    else list.push(row);
  }
  return { rows: index, dropped: new Map(dropped.map((d) => [d.name, d])) };
}

const IDENTITY = new Set<string>([...IDENTITY_LABELS, 'dp_rank']);
const INTEGER = /^[0-9]+$/;

/**
 * The engine a hint names: `options.engine`, else the first hint label whose value contains one of
 * a source's hint words as a whole word (`job="djl-lmi"`, `engine="vllm"`). Undefined when none.
 */
export function resolveHint(labels: Labels, options: PlanOptions): SourceId | undefined {
  if (options.engine !== undefined) return options.engine;
  for (const name of options.hintLabels) {
    const value = labels.get(name);
    if (value === '') continue;
    const words = value.toLowerCase().split(/[^a-z0-9]+/);
    const found = SOURCE_IDS.find((id) => SOURCES[id].hintTokens.some((t) => words.includes(t)));
    if (found !== undefined) return found;
  }
  return undefined;
}

const passThrough = (labels: Labels): OutputPlan => ({ labels, multiply: 1, divide: 1, constant: undefined, dropBlank: false, innerRef: 0 });

/** Rescales a bucket bound; `+Inf` stays. Rounds away float noise (0.3 / 1000 → 0.0003). */
function rescaleLe(le: string, multiply: number, divide: number): string {
  const bound = Number(le);
  if (!Number.isFinite(bound)) return le;
  return String(Number(((bound * multiply) / divide).toPrecision(15)));
}

/**
 * The unified name of an engine label, or null to drop it. A label already present under the
 * target name (from target metadata) wins: ours keeps its own name, or goes when it only repeats
 * the same value (`model` from the target and the engine's `model_name`).
 */
function renamed(info: SourceInfo, labels: Labels, name: string, value: string): string | null {
  for (const r of info.labelRenames) {
    if (r.from !== name) continue;
    if (r.when === 'integer' && !INTEGER.test(value)) return name;
    if (!labels.has(r.to)) return r.to;
    return labels.get(r.to) === value ? null : name;
  }
  return name;
}

/** The unified output of one mapping row for one incoming series, or undefined when it cannot be built. */
function unifiedPlan(labels: Labels, row: MappingRow): OutputPlan | undefined {
  const src = row.sourceMetric;
  const info = SOURCES[row.source];
  const conv = CONVERSIONS[row.convert];
  let constant: number | undefined;
  if (src.valueFromLabel !== undefined) {
    const text = labels.get(src.valueFromLabel);
    constant = text === '' ? Number.NaN : Number(text);
    if (!Number.isFinite(constant)) return undefined;
  }
  const pairs: string[] = [];
  labels.forEach((name, value) => {
    if (name === METRIC_NAME_LABEL || (src.match !== undefined && Object.hasOwn(src.match, name))) return;
    const out = renamed(info, labels, name, value);
    if (out === null) return;
    if (src.identityLabelsOnly === true && !IDENTITY.has(out)) return;
    if (out === 'le' && row.member === 'bucket' && row.convert !== 'none') value = rescaleLe(value, conv.multiply, conv.divide);
    pairs.push(out, value);
  });
  if (src.addLabels !== undefined) for (const [k, v] of Object.entries(src.addLabels)) pairs.push(k, v);
  if (info.engineMode === 'set' || (info.engineMode === 'if_absent' && !pairs.some((p, i) => i % 2 === 0 && p === 'engine'))) {
    pairs.push('engine', info.engineLabel);
  }
  pairs.push(METRIC_NAME_LABEL, row.to);
  const scaled = row.member === 'value' || row.member === 'sum';
  return {
    labels: Labels.fromPairs(pairs),
    multiply: scaled ? conv.multiply : 1,
    divide: scaled ? conv.divide : 1,
    constant,
    dropBlank: info.dropBlankSentinels === true,
    innerRef: 0,
  };
}

/**
 * Decides what the normalizer writes for one incoming series (the slow path, once per series):
 *
 * 1. Look the metric name up among the exposed names of the mapping tables. Not found: the series
 *    passes through unchanged.
 * 2. Rows whose engine prefix identifies the source apply directly. Rows of generic names (DJL's
 *    `QueueTime`, vLLM's `http_requests_total`) apply only when the hint names their engine.
 * 3. Rows with a label selector apply only when the series' labels match it.
 * 4. Each remaining row gives one unified series; with `keepRaw` the series is also written
 *    unchanged. When no row applies, or none could be built, the series passes through unchanged:
 *    the normalizer never drops data it cannot express...
 * 5. ...except the series of `DROPPED_METRICS` (their engine named by prefix or hint, as above):
 *    metrics the catalog leaves out on purpose give no output, or only the raw series with
 *    `keepRaw`.
 */
export function planSeries(labels: Labels, index: MappingIndex, options: PlanOptions): OutputPlan[] {
  const rows = index.rows.get(labels.metricName);
  if (rows === undefined) {
    const d = index.dropped.get(labels.metricName);
    if (d === undefined || (d.needsHint && resolveHint(labels, options) !== d.metric.source)) return [passThrough(labels)];
    return options.keepRaw ? [passThrough(labels)] : [];
  }
  let hint: SourceId | undefined | null = null;
  const outputs: OutputPlan[] = [];
  for (const row of rows) {
    if (row.needsHint) {
      if (hint === null) hint = resolveHint(labels, options);
      if (hint !== row.source) continue;
    }
    const match = row.sourceMetric.match;
    if (match !== undefined && !Object.entries(match).every(([k, v]) => labels.get(k) === v)) continue;
    const plan = unifiedPlan(labels, row);
    if (plan !== undefined) outputs.push(plan);
  }
  if (outputs.length === 0) return [passThrough(labels)];
  if (options.keepRaw) outputs.push(passThrough(labels));
  return outputs;
}

/**
 * DCGM writes "blank" sentinels instead of values a GPU does not support: int64 blanks
 * (0x7ffffffffffffff0 and up, 2^63 as a float) and fp64 blanks (2^47 and the three after it).
 */
export function isDcgmBlank(v: number): boolean {
  return v >= 2 ** 63 || (v >= 140737488355328 && v <= 140737488355331);
}
