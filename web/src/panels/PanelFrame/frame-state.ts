import type { BuiltQuery } from '../model/panel-queries.js';
import type { PanelData } from '../use-panel-data.js';
import type { PanelFrameProps } from './PanelFrame.js';

/**
 * The frame props every panel derives the same way from its data and queries: status, loading,
 * error, the interpolated PromQL and whether there is data. Spread first; a panel that judges
 * emptiness itself (a heatmap without buckets) overrides `status` or `hasData` after the spread.
 */
export function frameState(data: PanelData, queries: readonly BuiltQuery[]): Pick<PanelFrameProps, 'status' | 'loading' | 'error' | 'queries' | 'hasData'> {
  return { status: data.status, loading: data.loading, error: data.error, queries: queries.map((q) => q.expr), hasData: data.answers !== undefined };
}
