/**
 * The banner Insights shows above its dashboard while an insight is open: the symptom, its scope,
 * since when, and the best cause so far, each linking to its Diagnosis page. Nothing while none is
 * open, or when the server has no insights API (the dashboard works without it).
 */
import type { ReactNode } from 'react';
import type { InsightWire } from '../../../../src/query/index.js';
import { api } from '../../api/api-client.js';
import { useApiResource } from '../../api/use-api-resource.js';
import { formatDateTime } from '../../format/units.js';
import { pathForPage } from '../../state/url-state.js';
import { confidenceText, openInsights, scopeText, symptomTitle } from './diagnosis-model.js';
import './Diagnosis.css';

/** The link to an insight's Diagnosis page, beside the current `pathname` (a mount prefix is kept). */
export function diagnosisHref(id: string, pathname: string): string {
  return `${pathForPage('diagnosis', pathname)}?${new URLSearchParams({ insight: id }).toString()}`;
}

/** The banner over a list of insights (pure rendering); null when none is open. */
export function InsightBannerView({ insights, pathname }: { insights: readonly InsightWire[]; pathname: string }): ReactNode {
  const open = openInsights(insights);
  if (open.length === 0) return null;
  return (
    <div className="insight-banner" role="status" data-testid="insight-banner">
      <span className="badge critical">
        {open.length} open insight{open.length === 1 ? '' : 's'}
      </span>
      {open.slice(0, 3).map((i) => {
        const top = i.causes[0];
        return (
          <a key={i.id} className="insight-link" href={diagnosisHref(i.id, pathname)} data-testid="insight-link" data-insight={i.id}>
            {symptomTitle(i.symptom)} regressed on {scopeText(i.scope)} since {formatDateTime(i.onset * 1000, true)}
            {top === undefined ? '' : ` · likely ${top.cause} (${confidenceText(top.confidence)})`} →
          </a>
        );
      })}
    </div>
  );
}

/** The banner, loading `/api/v1/insights` on mount and on every refresh tick. */
export function InsightBanner(): ReactNode {
  const res = useApiResource('insights', async (signal) => (await api().diagnosis.insights({ signal })).data.insights);
  const pathname = typeof window === 'undefined' ? '/' : window.location.pathname;
  return res?.value === undefined ? null : <InsightBannerView insights={res.value} pathname={pathname} />;
}
