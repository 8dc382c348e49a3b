/**
 * The Cost page (`/cost`): the Cost dashboard of src/dashboards rendered with the Insights page's
 * machinery (variables bar, time range, refresh, annotations), and above its panels the summary of
 * `/api/v1/cost/summary` at the end of the page's range: cost per component, the right-sizing
 * findings and the compute- vs memory-bound verdict table with each verdict's reason.
 */
import type { ReactNode } from 'react';
import { COST } from '../../../../src/dashboards/index.js';
import { api } from '../../api/api-client.js';
import { useApiResource } from '../../api/use-api-resource.js';
import type { UrlState } from '../../state/url-state.js';
import { DashboardView } from '../Insights/Insights.js';
import { CostSummaryView } from './CostSummary.js';
import './Cost.css';

/** The summary at the end of the page's range (now for a relative range), reloaded on every refresh. */
function CostSummarySection({ state }: { state: UrlState }): ReactNode {
  // A relative range ends at the server's now, which the route takes when no time is given.
  const endMs = state.range.kind === 'absolute' ? state.range.toMs : undefined;
  const res = useApiResource(`cost-summary|${endMs ?? 'now'}`, async (signal) => (await api().cost.summary({ ...(endMs === undefined ? {} : { timeMs: endMs }), signal })).data);
  return <CostSummaryView summary={res?.value} error={res?.error} />;
}

/** The page. */
export function CostPage({ state }: { state: UrlState }): ReactNode {
  return (
    <div className="cost-page" data-testid="cost-page">
      <DashboardView dashboard={COST} state={state} header={<CostSummarySection state={state} />} />
    </div>
  );
}
