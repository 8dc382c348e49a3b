/**
 * Traffic distribution across availability zones (a table panel joined on `az`): requests per
 * AZ (the first query) with its share of the total drawn as a bar against the even share, flags
 * for an AZ that went silent or carries a skewed share (model/az-traffic.ts, or the dashboard's
 * own `dark` and `skewed` columns when it has them: `dark` is per endpoint and component, and the
 * row names the deployments that went dark), the panel's other columns (4xx/5xx), and AZ
 * selection: clicking a row toggles the AZ in the `az` variable.
 */
import { memo, useMemo, type ReactNode } from 'react';
import type { Panel } from '../../../../src/dashboards/types.js';
import { formatValue } from '../../format/units.js';
import { azTraffic, darkByAz, type AzTrafficRow } from '../model/az-traffic.js';
import { buildPanelQueries } from '../model/panel-queries.js';
import { joinTable } from '../model/table-join.js';
import { PanelFrame } from '../PanelFrame/PanelFrame.js';
import { frameState } from '../PanelFrame/frame-state.js';
import type { PanelEnv } from '../panel-env.js';
import { usePanelData } from '../use-panel-data.js';
import '../TablePanel/TablePanel.css';
import './AzTrafficPanel.css';

const AZ_VARIABLE = 'az';
const NONE: readonly string[] = [];
const SHOWN_AS_BAR_OR_FLAG: ReadonlySet<string> = new Set(['share', 'dark', 'skewed']);

/** The panel. */
export const AzTrafficPanel = memo(function AzTrafficPanel({ panel, env, heightPx }: { panel: Panel; env: PanelEnv; heightPx: number }): ReactNode {
  const queries = useMemo(() => buildPanelQueries(panel, env.ctx), [panel, env.ctx]);
  const data = usePanelData(queries, env.ctx.window);
  const label = panel.joinOn?.[0] ?? AZ_VARIABLE;
  const chosen = env.ctx.values[AZ_VARIABLE] ?? NONE;
  const hasAzVariable = env.ctx.dashboard.variables.some((v) => v.name === AZ_VARIABLE);
  const selecting = env.ctx.selection.length > 0;

  const { rows, joined } = useMemo(() => {
    const answers = data.answers ?? [];
    const joinedRows = joinTable(answers.map((a) => ({ refId: a.query.refId, samples: a.instant ?? [] })), [label]);
    const first = answers[0]?.query.refId ?? '';
    const rates = new Map<string, number>();
    for (const r of joinedRows) rates.set(r.labels[label] ?? '', r.values[first] ?? 0);
    const joined = new Map(joinedRows.map((r) => [r.labels[label] ?? '', r]));
    // With a hex-grid selection the shares are the selection's, not the fleet's: no flags.
    if (selecting) return { rows: azTraffic(rates, []).map((r): AzTrafficRow => ({ az: r.az, rate: r.rate, share: r.share })), joined };
    // An AZ filtered out by the variable is not silent: only the selected ones are expected.
    const known = chosen.length > 0 ? chosen : env.knownAzs;
    // The dashboard's own flags, where it computes them (src/dashboards' `dark` and `skewed` columns).
    const dark = darkByAz(answers.find((a) => a.query.refId === 'dark')?.instant ?? []);
    const rows = azTraffic(rates, known).map((r): AzTrafficRow => {
      const names = dark.get(r.az);
      if (names !== undefined) return { ...r, flag: 'zero' as const, dark: names };
      if (r.flag !== undefined) return r;
      const j = joined.get(r.az);
      if (j?.values.skewed !== undefined && !Number.isNaN(j.values.skewed)) return { ...r, flag: 'skewed' as const };
      return r;
    });
    return { rows, joined };
  }, [data.answers, label, chosen, env.knownAzs, selecting]);

  // The share bar and the flag badges stand for these columns.
  const extra = queries.slice(1).filter((q) => !q.reference && !SHOWN_AS_BAR_OR_FLAG.has(q.refId));
  const even = rows.length > 0 ? 1 / rows.length : 0;
  const flagged = rows.filter((r) => r.flag !== undefined).length;
  const toggle = (az: string): void => {
    if (!hasAzVariable) return;
    env.setVariable(AZ_VARIABLE, chosen.includes(az) ? chosen.filter((a) => a !== az) : [...chosen, az]);
  };

  return (
    <PanelFrame
      panel={panel}
      {...frameState(data, queries)}
      status={data.status === 'empty' && rows.length > 0 ? 'ready' : data.status}
      style={{ height: heightPx }}
      skeleton="table"
      badges={
        flagged > 0 ? (
          <span className="badge critical" title="AZs at zero traffic or with a skewed share">
            ⚠ {flagged} flagged
          </span>
        ) : selecting ? (
          <span className="badge" title="Shares of the hex-grid selection; zero and skew flags judge the whole fleet, so they are off">
            selection only
          </span>
        ) : undefined
      }
    >
      <div className="table-scroll" style={{ maxHeight: heightPx - 60 }}>
        <table className="data-table az-table" data-testid="az-traffic">
          <thead>
            <tr>
              <th scope="col">
                <span className="th-static">AZ</span>
              </th>
              <th scope="col" className="numeric">
                <span className="th-static">{queries[0]?.title ?? 'Requests'}</span>
              </th>
              <th scope="col" className="share-col">
                <span className="th-static">Share</span>
              </th>
              {extra.map((q) => (
                <th key={q.refId} scope="col" className="numeric">
                  <span className="th-static">{q.title}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const on = chosen.includes(r.az);
              return (
                <tr
                  key={r.az}
                  data-testid="az-row"
                  data-az={r.az}
                  data-flag={r.flag}
                  className={`clickable ${r.flag ?? ''} ${on ? 'selected' : ''}`}
                  tabIndex={0}
                  aria-selected={on}
                  title={hasAzVariable ? `Click to ${on ? 'remove' : 'filter to'} ${r.az}` : undefined}
                  onClick={() => toggle(r.az)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' || e.key === ' ') {
                      e.preventDefault();
                      toggle(r.az);
                    }
                  }}
                >
                  <td className="label-cell">
                    <span className="az-name">{r.az}</span>
                    {r.flag === 'zero' && (
                      <span className="badge critical" data-testid="az-dark" title={r.dark === undefined ? 'No requests in this AZ' : `Engines up, no requests: ${r.dark.join(', ')}`}>
                        ⊘ no traffic{r.dark === undefined ? '' : `: ${shortNames(r.dark)}`}
                      </span>
                    )}
                    {r.flag === 'skewed' && <span className="badge warning">⚖ skewed</span>}
                  </td>
                  <td className="numeric num">{formatValue(r.rate, queries[0]?.unit ?? 'req/s')}</td>
                  <td className="share-col">
                    <div className="share-bar" aria-label={`${formatValue(r.share, 'ratio')} of requests`}>
                      <div className="share-fill" style={{ width: `${Number.isNaN(r.share) ? 0 : r.share * 100}%` }} />
                      <div className="share-even" style={{ left: `${even * 100}%` }} title={`Even share ${formatValue(even, 'ratio')}`} />
                    </div>
                    <span className="share-text num">{formatValue(r.share, 'ratio', { digits: 2 })}</span>
                  </td>
                  {extra.map((q) => (
                    <td key={q.refId} className="numeric num">
                      {formatValue(joined.get(r.az)?.values[q.refId], q.unit)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </PanelFrame>
  );
});

/** "a, b +2": a dark AZ can name several deployments; the badge's title lists them all. */
function shortNames(names: readonly string[], max = 2): string {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} +${names.length - max}`;
}
