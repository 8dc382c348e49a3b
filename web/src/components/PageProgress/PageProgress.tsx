/**
 * A thin bar at the top of the page while queries run: how many of the queries started since
 * the page was last idle have rendered. A long range shows progress, never a frozen page.
 */
import { useSyncExternalStore, type ReactNode } from 'react';
import { readinessHook, readinessProgress, subscribeReadiness } from '../../app/readiness.js';

/** The bar. */
export function PageProgress(): ReactNode {
  const pending = useSyncExternalStore(subscribeReadiness, () => readinessHook().pendingQueries, () => 0);
  if (pending <= 0) return null;
  const [left, started] = readinessProgress();
  const done = Math.max(0, started - left);
  const pct = started > 0 ? Math.max(8, (done / started) * 100) : 8;
  return (
    <div
      className="page-progress"
      role="progressbar"
      aria-label="Loading queries"
      aria-valuemin={0}
      aria-valuemax={started}
      aria-valuenow={done}
      data-testid="page-progress"
    >
      <div className="page-progress-fill" style={{ width: `${pct}%` }} />
    </div>
  );
}
