/**
 * Label values for variable pickers and the AZ traffic panel: `labelValues(label, match[metric])`
 * over the page's window, cached per (metric, label, window) for the page's lifetime so that the
 * variable bar and the panels share one request.
 */
import { useEffect, useState } from 'react';
import { api, errorMessage, isCanceled } from './api-client.js';

const cache = new Map<string, Promise<string[]>>();

/** The values of `label` on series of `metric` (all series when `metric` is empty) in [startMs, endMs]. */
export function fetchLabelValues(metric: string, label: string, startMs: number, endMs: number): Promise<string[]> {
  const key = `${metric}\u0000${label}\u0000${startMs}\u0000${endMs}`;
  let p = cache.get(key);
  if (p === undefined) {
    p = api()
      .query.labelValues(label, { match: metric === '' ? undefined : [metric], startMs, endMs })
      .then((r) => r.data);
    // A failure is not cached: the next render may try again.
    void p.catch(() => cache.delete(key));
    cache.set(key, p);
  }
  return p;
}

/** The values, `undefined` while loading, with the error message when the call failed. */
export function useLabelValues(
  metric: string | undefined,
  label: string | undefined,
  startMs: number,
  endMs: number,
  enabled = true,
): { values?: readonly string[]; error?: string } {
  // Minute granularity: a refresh every few seconds reuses the cached answer.
  startMs = Math.floor(startMs / 60_000) * 60_000;
  endMs = Math.ceil(endMs / 60_000) * 60_000;
  const [state, setState] = useState<{ key: string; values?: string[]; error?: string }>({ key: '' });
  const key = `${metric}\u0000${label}\u0000${startMs}\u0000${endMs}`;
  useEffect(() => {
    if (label === undefined || !enabled) return undefined;
    let live = true;
    fetchLabelValues(metric ?? '', label, startMs, endMs).then(
      (values) => {
        if (live) setState({ key, values });
      },
      (e: unknown) => {
        if (live && !isCanceled(e)) setState({ key, error: errorMessage(e) });
      },
    );
    return () => {
      live = false;
    };
  }, [key, metric, label, startMs, endMs, enabled]);
  // Keep the previous values while the next window's load.
  return { values: state.values, error: state.error };
}
