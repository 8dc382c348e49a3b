/**
 * Loads one API resource (rules, alerts) on mount and on every refresh tick, cancelling the
 * request in flight when a newer one starts, and counting it in the readiness hook until the
 * answer is on screen (the frame after it was committed), as panels do.
 */
import { useEffect, useRef, useState } from 'react';
import { queriesRendered, queriesStarted } from '../app/readiness.js';
import { useRefreshTick } from '../state/refresh.js';
import { QueryClientError } from '../../../src/query/index.js';
import { errorMessage, isCanceled } from './api-client.js';

/** A resource's state: the last good value is kept while the next request runs. */
export interface ApiResource<T> {
  readonly value?: T;
  readonly error?: string;
  /** The HTTP status of the failure, when the server answered one (404: no such API). */
  readonly errorStatus?: number;
  /** Wall-clock time of the last answer (what ages on the page are measured from). */
  readonly atMs: number;
  readonly loading: boolean;
}

/** `load` runs again on every refresh tick and whenever `key` changes; `enabled: false` keeps it idle. */
export function useApiResource<T>(key: string, load: (signal: AbortSignal) => Promise<T>, enabled = true): ApiResource<T> | undefined {
  const tick = useRefreshTick();
  const [state, setState] = useState<ApiResource<T> | undefined>(undefined);
  const loader = useRef(load);
  loader.current = load;
  useEffect(() => {
    if (!enabled) return undefined;
    const ac = new AbortController();
    queriesStarted(1);
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      if (typeof requestAnimationFrame === 'undefined') queriesRendered(1);
      else requestAnimationFrame(() => queriesRendered(1));
    };
    setState((s) => (s === undefined ? s : { ...s, loading: true }));
    void loader.current(ac.signal).then(
      (value) => {
        if (!ac.signal.aborted) setState({ value, atMs: Date.now(), loading: false });
        release();
      },
      (e: unknown) => {
        if (!ac.signal.aborted && !isCanceled(e)) {
          const status = e instanceof QueryClientError ? { errorStatus: e.httpStatus } : {};
          setState((s) => ({ ...(s?.value === undefined ? {} : { value: s.value }), error: errorMessage(e), ...status, atMs: Date.now(), loading: false }));
        }
        release();
      },
    );
    return () => {
      ac.abort();
      release();
    };
  }, [tick, key, enabled]);
  return state;
}
