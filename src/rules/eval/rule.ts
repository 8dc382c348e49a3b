/**
 * What recording and alerting rules share: the query step (a `QueryClient` instant query turned
 * into Prometheus' rule `Vector`), health, and the result of one evaluation.
 */
import { Labels, type UnixMs } from '../../model/index.js';
import { parseSampleValue, unixSecondsToMs, type QueryClient } from '../../query/index.js';

/** A rule's health as `/api/v1/rules` reports it. */
export type RuleHealth = 'ok' | 'err' | 'unknown';

/** One sample of a rule's query result or output. */
export interface RuleSample {
  readonly labels: Labels;
  readonly tMs: UnixMs;
  readonly value: number;
}

/** What a rule's evaluation hands the group: the samples to append, in order. */
export type RuleVector = readonly RuleSample[];

/** What every rule evaluation is given. */
export interface RuleEvalContext {
  readonly query: QueryClient;
  /** The group's evaluation time (the aligned tick). */
  readonly evalTimeMs: UnixMs;
  /** The group's `query_offset`: queries and output samples are as of `evalTimeMs - queryOffsetMs`. */
  readonly queryOffsetMs: number;
  /** The group's `limit` (0: none). */
  readonly limit: number;
  /** Aborted when the evaluation passes its deadline or the group stops. */
  readonly signal: AbortSignal;
}

/** Raised when an evaluation is aborted (deadline or stop): the reason is the signal's. */
export class EvaluationAborted extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'EvaluationAborted';
  }
}

function abortReason(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  return r instanceof Error ? r.message : typeof r === 'string' ? r : 'evaluation aborted';
}

/**
 * Runs `work` unless `signal` aborts first. The query client is told through the signal too, but
 * a client that ignores it must not hang the group, so the race is ours: the dangling promise is
 * left to settle on its own (its rejection is swallowed).
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(new EvaluationAborted(abortReason(signal)));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new EvaluationAborted(abortReason(signal)));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/**
 * Evaluates `expr` at `tMs` as Prometheus' `EngineQueryFunc` does for rules: a vector as is, a
 * scalar as one sample without labels, anything else an error.
 */
export async function queryVector(client: QueryClient, expr: string, tMs: UnixMs, signal: AbortSignal): Promise<RuleSample[]> {
  const res = await raceAbort(client.instant(expr, tMs, { signal }), signal);
  const data = res.data;
  switch (data.resultType) {
    case 'vector':
      return data.result.map((s) => ({ labels: Labels.from(s.metric), tMs: unixSecondsToMs(s.value[0]), value: parseSampleValue(s.value[1]) }));
    case 'scalar':
      return [{ labels: Labels.EMPTY, tMs: unixSecondsToMs(data.result[0]), value: parseSampleValue(data.result[1]) }];
    default:
      throw new Error('rule result is not a vector or scalar');
  }
}

/** Reports whether two samples of a vector share a label set (Prometheus' `ContainsSameLabelset`). */
export function containsSameLabelset(vector: readonly { readonly labels: Labels }[]): boolean {
  const seen = new Set<string>();
  for (const s of vector) {
    const k = s.labels.key();
    if (seen.has(k)) return true;
    seen.add(k);
  }
  return false;
}

/** The message of whatever a rule evaluation threw. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * `formatExpr(expr)`, or `expr` as written when the printer throws: the loader has validated the
 * expression already, and a printer bug must not keep a rule from running.
 */
export function safeFormat(formatExpr: (expr: string) => string, expr: string): string {
  try {
    return formatExpr(expr);
  } catch {
    return expr;
  }
}
