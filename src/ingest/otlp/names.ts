/**
 * OTLP metric and attribute names turned into Prometheus names, following Prometheus' default
 * OTLP translation strategy (`UnderscoreEscapingWithSuffixes`, the `prometheus/otlptranslator`
 * rules): invalid characters become `_`, the unit and type become suffixes.
 */

/** How a metric counts, for its suffixes. */
export type MetricKind = 'gauge' | 'counter' | 'updowncounter' | 'histogram' | 'exponential-histogram' | 'summary';

/** UCUM units (as OTel writes them) to the words Prometheus names use. */
const UNITS: Readonly<Record<string, string>> = {
  d: 'days',
  h: 'hours',
  min: 'minutes',
  s: 'seconds',
  ms: 'milliseconds',
  us: 'microseconds',
  ns: 'nanoseconds',
  By: 'bytes',
  KiBy: 'kibibytes',
  MiBy: 'mebibytes',
  GiBy: 'gibibytes',
  TiBy: 'tibibytes',
  KBy: 'kilobytes',
  MBy: 'megabytes',
  GBy: 'gigabytes',
  TBy: 'terabytes',
  m: 'meters',
  V: 'volts',
  A: 'amperes',
  J: 'joules',
  W: 'watts',
  g: 'grams',
  Cel: 'celsius',
  Hz: 'hertz',
  '1': '',
  '%': 'percent',
};

/** The denominators of `x/y` units, singular ("per second"). */
const PER_UNITS: Readonly<Record<string, string>> = { s: 'second', m: 'minute', h: 'hour', d: 'day', w: 'week', mo: 'month', y: 'year' };

const NOT_NAME_CHAR = /[^a-zA-Z0-9:]+/u;

function lookup(table: Readonly<Record<string, string>>, key: string): string {
  return Object.hasOwn(table, key) ? table[key] : key;
}

/** Characters outside `[a-zA-Z0-9:]` become `_`, runs of `_` collapse, a leading `_` goes. */
function cleanUnit(unit: string): string {
  return unit
    .replace(/[^a-zA-Z0-9:]/gu, '_')
    .replace(/__+/g, '_')
    .replace(/^_/, '');
}

/** The unit suffixes of `unit`: main (`bytes`) and per (`per_second`), '' when absent or annotated (`{requests}`). */
export function unitSuffixes(unit: string): { main: string; per: string } {
  const slash = unit.indexOf('/');
  const mainOtel = (slash < 0 ? unit : unit.slice(0, slash)).trim();
  const perRaw = slash < 0 ? '' : unit.slice(slash + 1);
  let main = '';
  let per = '';
  if (mainOtel !== '' && !/[{}]/.test(mainOtel)) main = lookup(UNITS, mainOtel);
  if (perRaw !== '') {
    const perOtel = perRaw.trim();
    if (perOtel !== '' && !/[{}]/.test(perOtel)) per = lookup(PER_UNITS, perOtel);
    if (per !== '') per = 'per_' + per;
  }
  return { main: cleanUnit(main), per: cleanUnit(per) };
}

/**
 * The Prometheus metric name for an OTLP metric: name tokens (split at every character outside
 * `[a-zA-Z0-9:]`) joined by `_`, plus the unit words unless a token already says them, plus
 * `_total` for monotonic sums and `_ratio` for gauges of unit "1"; a leading digit gets a `_`.
 * Returns null when nothing valid is left (an empty or all-punctuation name).
 *
 * `http.server.duration` + `s` (histogram) → `http_server_duration_seconds`;
 * `requests` + `{request}` (counter) → `requests_total`; `cpu.utilization` + `1` (gauge) →
 * `cpu_utilization_ratio`.
 */
export function metricName(name: string, unit: string, kind: MetricKind): string | null {
  let tokens = name.split(NOT_NAME_CHAR).filter((t) => t !== '');
  let { main, per } = unitSuffixes(unit);
  if (tokens.includes(main)) main = '';
  if (per === 'per_') per = '';
  else {
    per = per.replace(/_$/, '');
    if (tokens.includes(per)) per = '';
  }
  if (per !== '') main = main.replace(/_$/, '');
  if (main !== '') tokens.push(main);
  if (per !== '') tokens.push(per);
  if (kind === 'counter') tokens = [...tokens.filter((t) => t !== 'total'), 'total'];
  if (unit === '1' && kind === 'gauge') tokens = [...tokens.filter((t) => t !== 'ratio'), 'ratio'];
  let out = tokens.join('_');
  if (/^[0-9]/.test(out)) out = '_' + out;
  if (out === '' || (out !== name && /^_*$/.test(out))) return null;
  return out;
}

/**
 * The Prometheus label name for an attribute key: every character outside `[a-zA-Z0-9_]` becomes
 * `_`; a leading digit gets `key_`, a single leading `_` gets `key` (`__reserved` stays). Returns
 * null for an empty key or one that becomes only underscores.
 */
export function labelName(key: string): string | null {
  if (key === '') return null;
  let out = key.replace(/[^a-zA-Z0-9_]/gu, '_');
  if (/^[0-9]/.test(out)) out = 'key_' + out;
  else if (out.startsWith('_') && !out.startsWith('__')) out = 'key' + out;
  if (out !== key && /^_*$/.test(out)) return null;
  return out;
}
