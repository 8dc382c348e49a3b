/**
 * Fetches a panel's queries: all in parallel, cancelled with an AbortController as soon as the
 * inputs change (a stale answer is never shown), keeping the last good answer on screen while the
 * next one loads (no flash on refresh). The readiness hook counts the queries until the panel has
 * committed their render.
 */
import { useEffect, useRef, useState } from 'react';
import type { InstantSample, RangeSeries } from '../../../src/query/index.js';
import { api, errorMessage, isCanceled } from '../api/api-client.js';
import { queriesRendered, queriesStarted } from '../app/readiness.js';
import type { BuiltQuery } from './model/panel-queries.js';
import type { QueryWindow } from './model/step.js';

/** A panel's state, as `data-state` shows it. */
export type PanelStatus = 'loading' | 'empty' | 'error' | 'ready';

/** One query's answer: a matrix for range queries, a vector for instant ones (a scalar becomes one sample without labels). */
export interface QueryAnswer {
  readonly query: BuiltQuery;
  readonly range?: readonly RangeSeries[];
  readonly instant?: readonly InstantSample[];
}

/** What a panel renders. */
export interface PanelData {
  readonly status: PanelStatus;
  /** The last good answers (kept while a new request loads). */
  readonly answers?: readonly QueryAnswer[];
  /** The window the answers were computed for. */
  readonly window?: QueryWindow;
  readonly error?: string;
  readonly warnings: readonly string[];
  /** A request is in flight (the answers, if any, are from the previous inputs). */
  readonly loading: boolean;
}

interface Settled {
  readonly key: string;
  readonly answers?: readonly QueryAnswer[];
  readonly window?: QueryWindow;
  readonly error?: string;
  readonly warnings: readonly string[];
}

/** True when no non-reference query returned a series. */
export function answersEmpty(answers: readonly QueryAnswer[]): boolean {
  return answers.every((a) => a.query.reference || (a.range ?? a.instant ?? []).length === 0);
}

/** The cache key of a request: the interpolated queries and the window. */
export function requestKey(queries: readonly BuiltQuery[], window: QueryWindow): string {
  return JSON.stringify([queries.map((q) => [q.refId, q.expr, q.instant]), window.startMs, window.endMs, window.stepMs]);
}

async function runQuery(q: BuiltQuery, w: QueryWindow, signal: AbortSignal): Promise<{ answer: QueryAnswer; warnings: readonly string[] }> {
  const client = api().query;
  if (q.instant) {
    const r = await client.instant(q.expr, w.endMs, { signal });
    const d = r.data;
    const instant: InstantSample[] =
      d.resultType === 'vector'
        ? d.result
        : d.resultType === 'scalar'
          ? [{ metric: {}, value: d.result }]
          : d.resultType === 'matrix'
            ? d.result.map((s) => ({ metric: s.metric, value: s.values[s.values.length - 1] ?? [0, 'NaN'] }))
            : [];
    return { answer: { query: q, instant }, warnings: r.warnings };
  }
  const r = await client.range(q.expr, w.startMs, w.endMs, w.stepMs, { signal });
  return { answer: { query: q, range: r.data.result }, warnings: r.warnings };
}

/** Runs `queries` over `window` whenever either changes; `enabled: false` keeps the panel idle. */
export function usePanelData(queries: readonly BuiltQuery[], window: QueryWindow, enabled = true): PanelData {
  const key = requestKey(queries, window);
  const latest = useRef({ queries, window });
  latest.current = { queries, window };
  const pending = useRef<{ key: string; n: number } | undefined>(undefined);
  const [settled, setSettled] = useState<Settled | undefined>(undefined);

  useEffect(() => {
    if (!enabled) return undefined;
    const { queries: qs, window: w } = latest.current;
    const ac = new AbortController();
    const n = Math.max(1, qs.length);
    queriesStarted(n);
    pending.current = { key, n };
    // Requests start in a task of their own, so that the click that caused them paints first (the
    // selected hex cell lights up at once) and 60 fetch() calls do not lengthen the click's frame.
    const timer = setTimeout(() => {
      Promise.all(qs.map((q) => runQuery(q, w, ac.signal))).then(
        (rs) => {
          if (ac.signal.aborted) return;
          setSettled({ key, answers: rs.map((r) => r.answer), window: w, warnings: rs.flatMap((r) => r.warnings) });
        },
        (e: unknown) => {
          if (ac.signal.aborted || isCanceled(e)) return;
          setSettled({ key, error: errorMessage(e), warnings: [] });
        },
      );
    }, 0);
    return () => {
      clearTimeout(timer);
      ac.abort();
      if (pending.current?.key === key) {
        queriesRendered(pending.current.n);
        pending.current = undefined;
      }
    };
  }, [key, enabled]);

  // Release the readiness count once the answer for the current key is on screen.
  useEffect(() => {
    if (settled !== undefined && pending.current?.key === settled.key) {
      queriesRendered(pending.current.n);
      pending.current = undefined;
    }
  }, [settled]);

  const current = settled?.key === key;
  if (settled === undefined) return { status: 'loading', warnings: [], loading: true };
  if (settled.error !== undefined) {
    // Keep showing an error until the next answer arrives, but say that a new request is running.
    return { status: current ? 'error' : 'loading', error: settled.error, warnings: [], loading: !current };
  }
  const answers = settled.answers ?? [];
  const status: PanelStatus = !current ? 'loading' : answersEmpty(answers) ? 'empty' : 'ready';
  return { status, answers, window: settled.window, warnings: settled.warnings, loading: !current };
}
