/**
 * One number (the first series of the panel's first query), coloured by the panel's thresholds
 * with an icon per state, so the state reads without colour: ✓ ok, ▲ warning, ✖ critical.
 */
import { memo, useMemo, type ReactNode } from 'react';
import type { Panel } from '../../../../src/dashboards/types.js';
import { parseSampleValue } from '../../../../src/query/index.js';
import { formatValue } from '../../format/units.js';
import { thresholdState } from '../HexGridPanel/health.js';
import { buildPanelQueries, panelFollowsSelection } from '../model/panel-queries.js';
import { PanelBadges } from '../PanelBadges/PanelBadges.js';
import { PanelFrame } from '../PanelFrame/PanelFrame.js';
import { frameState } from '../PanelFrame/frame-state.js';
import type { PanelEnv } from '../panel-env.js';
import { usePanelData } from '../use-panel-data.js';
import './StatPanel.css';

const ICONS = { ok: '✓', warning: '▲', critical: '✖' } as const;

/** The panel. */
export const StatPanel = memo(function StatPanel({ panel, env, heightPx }: { panel: Panel; env: PanelEnv; heightPx: number }): ReactNode {
  const queries = useMemo(() => buildPanelQueries(panel, env.ctx), [panel, env.ctx]);
  const data = usePanelData(queries, env.ctx.window);
  const first = data.answers?.[0];
  const sample = first?.instant?.[0] ?? undefined;
  const value = sample === undefined ? undefined : parseSampleValue(sample.value[1]);
  const state = panel.thresholds === undefined ? undefined : thresholdState(value, panel.thresholds);
  return (
    <PanelFrame
      panel={panel}
      {...frameState(data, queries)}
      className="stat-panel"
      style={{ height: heightPx }}
      skeleton="stat"
      badges={<PanelBadges fleetWide={env.ctx.selection.length > 0 && !panelFollowsSelection(panel, env.ctx.dashboard)} />}
    >
      <div className={`stat-value num ${state ?? ''}`} data-testid={`stat-${panel.id}`} data-value={value ?? ''}>
        {state !== undefined && state !== 'ok' && (
          <span className="stat-icon" aria-label={state}>
            {ICONS[state]}
          </span>
        )}
        {formatValue(value, panel.unit)}
      </div>
    </PanelFrame>
  );
});
