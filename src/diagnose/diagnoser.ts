/**
 * `createDiagnoser`: the `Diagnoser` over a `QueryClient`. One diagnosis reads every signal of
 * every detector and every symptom once (a range query each, over the baseline and incident
 * windows of window.ts, deduplicated by query text, a few at a time), narrows the readings to the
 * request's `match[]`, runs the detectors and ranks their findings (rank.ts). It reads no clock:
 * the time comes with the request, so the same call over the same data answers the same.
 */
import type { QueryClient } from '../query/index.js';
import { fmt, type Detector, type DetectorContext, type Finding, type Reading, type Readings } from './detector.js';
import { DETECTORS } from './detectors/index.js';
import { labelsMatch, scoped, selectorMatchers, type LabelMatcher } from './promql-text.js';
import { rank } from './rank.js';
import { SYMPTOM_QUERIES, worstRegression } from './symptoms.js';
import { SYMPTOMS, type CauseId, type DiagnoseRequest, type Diagnoser, type Diagnosis, type Symptom } from './types.js';
import { DEFAULT_WINDOWS, planBaseline, readSignal, type WindowOptions } from './window.js';

/** Options of `createDiagnoser`; all optional. */
export interface DiagnoserOptions {
  /** The windows (defaults: `DEFAULT_WINDOWS`). */
  readonly windows?: Partial<WindowOptions>;
  /** The detectors (default: `DETECTORS`, one per cause). */
  readonly detectors?: readonly Detector[];
  /** Range queries in flight at once (default 4). */
  readonly concurrency?: number;
}

/** Runs `fn` over `items` with at most `n` in flight; results in item order. */
async function pool<T, R>(items: readonly T[], n: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

/** The diagnoser over `client`. */
export function createDiagnoser(client: QueryClient, opts: DiagnoserOptions = {}): Diagnoser {
  const windows: WindowOptions = { ...DEFAULT_WINDOWS, ...opts.windows };
  const detectors = opts.detectors ?? DETECTORS;
  const queries = [...new Set([...Object.values(SYMPTOM_QUERIES), ...detectors.flatMap((d) => Object.values(d.signals).map((s) => s.query))])];
  return async (req: DiagnoseRequest): Promise<Diagnosis> => {
    const selectors: LabelMatcher[][] = (req.match ?? []).map(selectorMatchers);
    const keep = (r: Reading) => selectors.length === 0 || selectors.some((m) => labelsMatch(r.labels, m));
    const plan = await planBaseline(client, req.timeMs, windows, req.signal);
    const read = await pool(queries, opts.concurrency ?? 4, (q) => readSignal(client, scoped(q), plan, req.signal));
    const byQuery = new Map(queries.map((q, i) => [q, read[i].filter(keep)]));

    const findings: Finding[] = [];
    const ruledOut: { cause: CauseId; reason: string }[] = [];
    for (const d of detectors) {
      const readings: Readings = Object.fromEntries(Object.entries(d.signals).map(([k, s]) => [k, byQuery.get(s.query) ?? []]));
      const ctx: DetectorContext = {
        timeMs: req.timeMs,
        evidence: (key, scope, reading) => ({ query: scoped(d.signals[key]?.query ?? '', scope), baseline: reading?.baseline ?? null, incident: reading?.incident ?? null }),
      };
      const r = d.detect(readings, ctx);
      if (Array.isArray(r)) findings.push(...r);
      else ruledOut.push({ cause: d.cause, reason: r.ruledOut });
    }
    return rank({ timeMs: req.timeMs, findings, ruledOut, symptomLine: symptomLine(req.symptom, byQuery) });
  };
}

/** The sentence on the symptom for `none`: the requested one, or the one that regressed most. */
function symptomLine(requested: Symptom | undefined, byQuery: ReadonlyMap<string, readonly Reading[]>): string {
  const worst = (s: Symptom) => ({ s, ...worstRegression(s, byQuery.get(SYMPTOM_QUERIES[s]) ?? []) });
  const pick = requested === undefined ? SYMPTOMS.map(worst).reduce((a, b) => (b.factor > a.factor ? b : a)) : worst(requested);
  if (pick.reading === undefined) return `No symptom regressed against its baseline${requested === undefined ? '' : ` (${requested})`}.`;
  const where = pick.reading.labels.component ?? pick.reading.labels.endpoint ?? 'the fleet';
  return `The worst ${pick.s} regression is ${fmt(pick.factor)}× its baseline, on ${where}.`;
}

