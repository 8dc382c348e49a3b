/**
 * Picks the component for a panel's visualization. A table joined on `az` is the AZ traffic
 * table (shares and flags); any other table is the per-row table with outliers.
 */
import type { ReactNode } from 'react';
import type { Panel as PanelDef } from '../../../../src/dashboards/types.js';
import { AzTrafficPanel } from '../AzTrafficPanel/AzTrafficPanel.js';
import { HeatmapPanel } from '../HeatmapPanel/HeatmapPanel.js';
import { HexGridPanel } from '../HexGridPanel/HexGridPanel.js';
import type { PanelEnv } from '../panel-env.js';
import { StatPanel } from '../StatPanel/StatPanel.js';
import { TablePanel } from '../TablePanel/TablePanel.js';
import { TimeSeriesPanel } from '../TimeSeriesPanel/TimeSeriesPanel.js';

/** Pixels per grid row (Grafana's gridPos height unit is about this). */
export const ROW_PX = 30;

/** The panel's height in px. */
export function panelHeightPx(p: PanelDef): number {
  return p.height * ROW_PX + (p.height - 1) * 2;
}

/** One panel, by visualization. */
export function Panel({ panel, env }: { panel: PanelDef; env: PanelEnv }): ReactNode {
  const heightPx = panelHeightPx(panel);
  switch (panel.viz) {
    case 'stat':
      return <StatPanel panel={panel} env={env} heightPx={heightPx} />;
    case 'timeseries':
      return <TimeSeriesPanel panel={panel} env={env} heightPx={heightPx} />;
    case 'heatmap':
      return <HeatmapPanel panel={panel} env={env} heightPx={heightPx} />;
    case 'table':
      return (panel.joinOn?.[0] ?? 'instance') === 'az' ? (
        <AzTrafficPanel panel={panel} env={env} heightPx={heightPx} />
      ) : (
        <TablePanel panel={panel} env={env} heightPx={heightPx} />
      );
    case 'hexgrid':
      return panel.hexgrid === undefined ? null : <HexGridPanel panel={panel} env={env} heightPx={heightPx} />;
  }
}
