/**
 * Quality (`/quality`): the Quality dashboard (src/dashboards/quality.ts) rendered with the Insights
 * page's machinery (variables bar, time range, refresh, drift and event markers), and below it the
 * sample browser over the same time range.
 */
import type { ReactNode } from 'react';
import { dashboardById } from '../../../../src/dashboards/index.js';
import { api } from '../../api/api-client.js';
import { useApiResource } from '../../api/use-api-resource.js';
import { formatValue } from '../../format/units.js';
import { useNow } from '../../state/refresh.js';
import { resolveRange } from '../../state/time-range.js';
import type { UrlState } from '../../state/url-state.js';
import { DashboardView } from '../Insights/Insights.js';
import { SampleBrowser } from './SampleBrowser.js';
import './Quality.css';

const DASHBOARD_ID = 'quality';

/** One line on the sample store and the judge, or why there are no samples. */
function StatusLine(): ReactNode {
  const status = useApiResource('quality-status', (signal) => api().qualityStatus(signal));
  if (status === undefined) return null;
  if (status.value === undefined) {
    return (
      <p className="quality-status muted" data-testid="quality-status">
        No sample store: {status.error ?? 'unknown'}
      </p>
    );
  }
  const s = status.value;
  return (
    <p className="quality-status muted" data-testid="quality-status">
      Sample store {s.store.kind}: {s.store.pairs} pairs, {formatValue(s.store.bytes, 'bytes')} · sampling {formatValue(s.sampling, 'ratio')} · judge {s.judge === null ? 'none (stage 1 only)' : `${s.judge.model} on ${formatValue(s.judge.share, 'ratio')}`}
    </p>
  );
}

/** The page. */
export function QualityPage({ state }: { state: UrlState }): ReactNode {
  const dashboard = dashboardById(DASHBOARD_ID);
  const nowMs = useNow(JSON.stringify(state.range));
  if (dashboard === undefined) {
    return (
      <div className="page-error" role="alert">
        No dashboard <span className="mono">{DASHBOARD_ID}</span> in src/dashboards.
      </div>
    );
  }
  const { startMs, endMs } = resolveRange(state.range, nowMs);
  return (
    <DashboardView dashboard={dashboard} state={state} banner={<StatusLine />}>
      <SampleBrowser startMs={startMs} endMs={endMs} />
    </DashboardView>
  );
}
