/**
 * The refresh clock: a counter that the auto-refresh timer and the refresh button advance.
 * Pages derive "now" from it, so every panel of a page queries the same window, and a refresh
 * is one state change, not one per panel.
 */
import { useEffect, useMemo, useSyncExternalStore } from 'react';

let tick = 0;
const listeners = new Set<() => void>();

/** Advances the clock: every page re-resolves its relative range and refetches. */
export function refreshNow(): void {
  tick++;
  for (const l of listeners) l();
}

/** The refresh counter. */
export function useRefreshTick(): number {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => tick,
    () => 0,
  );
}

/** Runs the auto-refresh timer (`ms` 0: off); skipped while the tab is hidden. */
export function useAutoRefresh(ms: number): void {
  useEffect(() => {
    if (ms <= 0) return undefined;
    const id = window.setInterval(() => {
      if (!document.hidden) refreshNow();
    }, ms);
    return () => window.clearInterval(id);
  }, [ms]);
}

/** "Now" for a page: fixed between refreshes, renewed on a refresh and when `rangeKey` changes. */
export function useNow(rangeKey: string): number {
  const t = useRefreshTick();
  // Reading the clock during render is deliberate: the value is memoized per refresh and range.
  return useMemo(() => Date.now(), [t, rangeKey]);
}
