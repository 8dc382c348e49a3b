/**
 * Runs every evaluation of the differential test on both sides and collects the differences.
 */
import type { PrometheusHttp } from '../../../bench/promql/prometheus-peer.js';
import type { QueryEngine } from '../../../src/promql/engine/index.js';
import { QueryError } from '../../../src/promql/errors.js';
import type { Queryable } from '../../../src/storage/index.js';
import { compareOutcomes, fromApi, fromValue, type Outcome } from './compare.js';
import { KNOWN_DIFFERENCES, type KnownDifference } from './known-differences.js';
import type { DiffEval } from './queries.js';

/** One evaluation whose answers differ, with the lines that say how. */
export interface Difference {
  readonly e: DiffEval;
  readonly lines: string[];
  /** The known-differences entry that accepts it, if any. */
  readonly known?: KnownDifference;
}

/** What a differential run found. */
export interface DiffReport {
  readonly evaluations: number;
  readonly equal: number;
  /** Of the equal ones: both sides failed. */
  readonly bothErrors: number;
  /** Of the equal ones: both answered with no series. */
  readonly bothEmpty: number;
  /** Queries whose every evaluation was empty or failed on both sides (worth a look: they test little). */
  readonly vacuous: string[];
  readonly differences: Difference[];
  /** Known-differences entries that matched no difference (the engine or the queries changed). */
  readonly stale: KnownDifference[];
}

/** Where the engines are: ours (and a second one with experimental functions on), the peer. */
export interface DiffSides {
  readonly queryable: Queryable;
  readonly engine: QueryEngine;
  readonly experimentalEngine: QueryEngine;
  readonly prometheus: PrometheusHttp;
}

/** A readable name of an evaluation: `query @ 2025-12-01T00:35:03.000Z` or `query [start, end] step 60s`. */
export function evalName(e: DiffEval): string {
  const iso = (ms: number): string => new Date(ms).toISOString().slice(11, 19);
  const text = e.q.ours !== undefined ? `${e.q.query} (ours: ${e.q.ours})` : e.q.query;
  return e.mode === 'instant' ? `${text}  @ ${iso(e.tMs)}` : `${text}  range ${iso(e.startMs)}..${iso(e.endMs)} step ${e.stepMs / 1000}s`;
}

async function ours(s: DiffSides, e: DiffEval): Promise<Outcome | { crash: string }> {
  const engine = e.q.ours !== undefined ? s.experimentalEngine : s.engine;
  const text = e.q.ours ?? e.q.query;
  try {
    const r = e.mode === 'instant' ? await engine.instantQuery(s.queryable, text, e.tMs) : await engine.rangeQuery(s.queryable, text, e.startMs, e.endMs, e.stepMs);
    return fromValue(r.value);
  } catch (err) {
    if (err instanceof QueryError) return { kind: 'error', message: `${err.errorType}: ${err.message}` };
    return { crash: err instanceof Error ? (err.stack ?? err.message).split('\n').slice(0, 4).join(' | ') : String(err) };
  }
}

/** Runs `evals` one at a time on both sides and compares. */
export async function runDiff(s: DiffSides, evals: readonly DiffEval[]): Promise<DiffReport> {
  const differences: Difference[] = [];
  const used = new Set<KnownDifference>();
  let equal = 0;
  let bothErrors = 0;
  let bothEmpty = 0;
  const informative = new Set<string>();
  for (const e of evals) {
    const res = e.mode === 'instant' ? await s.prometheus.query(e.q.query, e.tMs) : await s.prometheus.queryRange(e.q.query, e.startMs, e.endMs, e.stepMs);
    const want = fromApi(res);
    const got = await ours(s, e);
    const ordered = e.mode === 'instant' && /^sort(_desc)?\(/.test(e.q.query);
    const lines = 'crash' in got ? [`ours threw (not a QueryError): ${got.crash}`] : compareOutcomes(want, got, ordered);
    if (want.kind === 'error') bothErrors += lines.length === 0 ? 1 : 0;
    else if (want.series.length === 0) bothEmpty += lines.length === 0 ? 1 : 0;
    else informative.add(e.q.query);
    if (lines.length === 0) {
      equal++;
      continue;
    }
    const known = KNOWN_DIFFERENCES.find((k) => k.query === e.q.query && (k.mode === undefined || k.mode === e.mode));
    if (known !== undefined) used.add(known);
    differences.push({ e, lines, known });
  }
  const vacuous = [...new Set(evals.map((e) => e.q.query))].filter((q) => !informative.has(q));
  return { evaluations: evals.length, equal, bothErrors, bothEmpty, vacuous, differences, stale: KNOWN_DIFFERENCES.filter((k) => !used.has(k)) };
}

/** The report as text: the summary line, then every difference. */
export function formatReport(r: DiffReport): string {
  const unexpected = r.differences.filter((d) => d.known === undefined).length;
  const out = [
    `promql-differential: ${r.evaluations} queries, ${r.equal} equal, ${r.differences.length} differ (${unexpected} unexpected, ${r.differences.length - unexpected} known)`,
    `  of the equal: ${r.bothErrors} failed on both sides, ${r.bothEmpty} empty on both sides`,
    `  queries that never returned data on either side: ${r.vacuous.length === 0 ? 'none' : r.vacuous.join('  |  ')}`,
  ];
  for (const d of r.differences) {
    out.push(`${d.known !== undefined ? 'KNOWN  ' : 'DIFFERS'} ${evalName(d.e)}`);
    if (d.known !== undefined) out.push(`    reason: ${d.known.reason}`);
    for (const l of d.lines) out.push(`    ${l}`);
  }
  for (const k of r.stale) out.push(`STALE known difference (no longer differs, remove it): ${k.query}${k.mode !== undefined ? ` [${k.mode}]` : ''}`);
  return `${out.join('\n')}\n`;
}
