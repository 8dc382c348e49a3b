/**
 * Diagnosis (`/diagnosis?insight=<id>`): one insight of the online runner (`/api/v1/insights`) and
 * its diagnosis (`/api/v1/diagnosis` at its detection, narrowed to its scope): the ranked causes,
 * each with its summary, confidence, evidence values and an evidence chart, all charts on the
 * symptom's time axis (one window, from before the onset to after the recovery); the scope
 * highlighted on the Insights hex grid (its replicas selected); and a "why not" line for each cause
 * ruled out. Charts and grid are the Insights page's own panels.
 */
import { useMemo, type ReactNode } from 'react';
import { dashboardById } from '../../../../src/dashboards/index.js';
import type { Dashboard, Panel as PanelDef } from '../../../../src/dashboards/types.js';
import type { CauseWire, DiagnosisData, InsightWire } from '../../../../src/query/index.js';
import { api } from '../../api/api-client.js';
import { useApiResource } from '../../api/use-api-resource.js';
import { formatDateTime, formatValue } from '../../format/units.js';
import { hexGridPanel, type PanelContext } from '../../panels/model/panel-queries.js';
import { DEFAULT_SCRAPE_INTERVAL_MS, queryWindow } from '../../panels/model/step.js';
import { Panel } from '../../panels/Panel/Panel.js';
import type { PanelEnv } from '../../panels/panel-env.js';
import { useNow } from '../../state/refresh.js';
import type { UrlState } from '../../state/url-state.js';
import { confidenceText, evidencePanel, insightWindow, pickInsight, scopeSelector, scopeText, symptomPanel, symptomTitle } from './diagnosis-model.js';
import '../Targets/Targets.css';
import './Diagnosis.css';

const NONE: readonly string[] = [];
const noop = (): void => undefined;

/** A page environment for the shared window, with the scope's replicas selected on the grid; the panels' callbacks do nothing here. */
export function diagnosisEnv(dashboard: Dashboard, window: { startMs: number; endMs: number }, replicas: readonly string[]): PanelEnv {
  const ctx: PanelContext = {
    dashboard,
    values: {},
    selection: replicas,
    hexView: 'replica',
    quantile: '0.99',
    tabs: {},
    window: queryWindow(window.startMs, window.endMs, { maxPoints: 400, minStepMs: DEFAULT_SCRAPE_INTERVAL_MS }),
    rangeMs: window.endMs - window.startMs,
  };
  return { ctx, annotations: [], alerts: [], knownAzs: [], thresholds: {}, select: noop, setVariable: noop, setHexView: noop, setTab: noop, setThresholds: noop, zoom: noop, reportCells: noop };
}

function CauseCard({ cause, rank, env }: { cause: CauseWire; rank: number; env: PanelEnv | undefined }): ReactNode {
  const chart = evidencePanel(cause, rank);
  return (
    <li className="cause-card" data-testid="cause" data-cause={cause.cause} data-rank={rank}>
      <div className="cause-head">
        <span className="cause-rank num">#{rank}</span>
        <span className="cause-id mono">{cause.cause}</span>
        <span className="confidence" title="Confidence">
          <span className="confidence-bar" style={{ width: `${Math.round(cause.confidence * 100)}%` }} aria-hidden="true" />
          <span className="num">{confidenceText(cause.confidence)}</span>
        </span>
        <span className="chip">{scopeText(cause.scope)}</span>
        {cause.onset !== null && <span className="muted">since {formatDateTime(cause.onset * 1000)}</span>}
      </div>
      <p className="cause-summary">{cause.summary}</p>
      {cause.evidence.length > 0 && (
        <table className="data-table evidence-table" data-testid="evidence">
          <thead>
            <tr>
              <th scope="col">Evidence</th>
              <th scope="col" className="numeric">
                Baseline
              </th>
              <th scope="col" className="numeric">
                Incident
              </th>
            </tr>
          </thead>
          <tbody>
            {cause.evidence.map((e) => (
              <tr key={e.query}>
                <td className="mono">{e.query}</td>
                <td className="numeric num">{formatValue(e.baseline, 'none')}</td>
                <td className="numeric num">{formatValue(e.incident, 'none')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {chart !== undefined && env !== undefined && (
        <div className="evidence-chart" data-testid="evidence-chart">
          <Panel panel={chart} env={env} />
        </div>
      )}
    </li>
  );
}

/** The page's body for one insight (pure rendering; `env` undefined renders no charts). */
export function DiagnosisView({ insight, diagnosis, env, grid }: { insight: InsightWire; diagnosis: DiagnosisData | undefined; env: PanelEnv | undefined; grid: PanelDef | undefined }): ReactNode {
  const causes = diagnosis?.causes ?? insight.causes;
  const symptom = symptomPanel(insight);
  return (
    <div className="diagnosis-body" data-testid="diagnosis" data-insight={insight.id}>
      <header className="diagnosis-head">
        <h2>
          {symptomTitle(insight.symptom)} regressed on <span className="mono">{scopeText(insight.scope)}</span>
        </h2>
        <span className={`badge ${insight.resolved === null ? 'critical' : 'ok'}`} data-testid="insight-state">
          {insight.resolved === null ? 'open' : 'resolved'}
        </span>
        <span className="muted">
          onset {formatDateTime(insight.onset * 1000)} · detected {formatDateTime(insight.detected * 1000)}
          {insight.resolved === null ? '' : ` · resolved ${formatDateTime(insight.resolved * 1000)}`}
        </span>
      </header>
      {symptom !== undefined && env !== undefined && (
        <div className="symptom-chart" data-testid="symptom-chart">
          <Panel panel={symptom} env={env} />
        </div>
      )}
      <div className="diagnosis-columns">
        <section aria-label="Ranked causes">
          <h3>Ranked causes</h3>
          {causes.length === 0 ? (
            <p className="muted">No cause yet: the diagnosis runs as the incident window fills.</p>
          ) : (
            <ol className="cause-list">
              {causes.map((c, n) => (
                <CauseCard key={`${c.cause}-${n}`} cause={c} rank={n + 1} env={env} />
              ))}
            </ol>
          )}
          {diagnosis !== undefined && diagnosis.ruledOut.length > 0 && (
            <>
              <h3>Why not</h3>
              <ul className="why-not" data-testid="why-not">
                {diagnosis.ruledOut.map((r) => (
                  <li key={r.cause} data-cause={r.cause}>
                    <span className="mono">{r.cause}</span>: {r.reason}
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
        {grid !== undefined && env !== undefined && (
          <section className="scope-grid" aria-label="Scope on the fleet" data-testid="scope-grid">
            <Panel panel={grid} env={env} />
          </section>
        )}
      </div>
    </div>
  );
}

/** The page. */
export function DiagnosisPage({ state }: { state: UrlState }): ReactNode {
  const insights = useApiResource('insights', async (signal) => (await api().diagnosis.insights({ signal })).data.insights);
  const insight = insights?.value === undefined ? undefined : pickInsight(insights.value, state.insight);
  const selector = insight === undefined ? '' : scopeSelector(insight.scope);
  const diagnosis = useApiResource(
    `diagnosis:${insight?.id ?? ''}`,
    async (signal) => {
      const i = insight as InsightWire;
      // An open insight is diagnosed now; a resolved one where it was detected.
      const r = await api().diagnosis.diagnosis({ ...(i.resolved === null ? {} : { timeMs: i.detected * 1000 }), symptom: i.symptom, ...(selector === '' ? {} : { match: [selector] }), signal });
      return r.data;
    },
    insight !== undefined,
  );
  const nowMs = useNow(insight?.id ?? '');
  const window = insight === undefined ? undefined : insightWindow(insight, nowMs);
  const startMs = window?.startMs;
  const endMs = window?.endMs;
  const replicas = useApiResource(
    `replicas:${selector}`,
    async (signal) => (await api().query.labelValues('replica', { match: [selector], startMs, endMs, signal })).data,
    selector !== '',
  );
  const dashboard = dashboardById('insights');
  const selected = replicas?.value ?? NONE;
  const env = useMemo(
    () => (dashboard === undefined || startMs === undefined || endMs === undefined ? undefined : diagnosisEnv(dashboard, { startMs, endMs }, selected)),
    [dashboard, startMs, endMs, selected],
  );
  const grid = dashboard === undefined ? undefined : hexGridPanel(dashboard);
  const status = insights === undefined ? 'loading' : insights.value === undefined ? 'error' : insight === undefined ? 'empty' : 'ready';
  return (
    <main className="targets diagnosis" aria-label="Diagnosis">
      <div className="targets-head">
        <h1>Diagnosis</h1>
      </div>
      <section className="panel targets-body" data-testid="diagnosis-page" data-state={status} aria-busy={insights?.loading ?? true}>
        {status === 'loading' && <div className="skeleton" style={{ height: 200 }} />}
        {status === 'error' && (
          <div className="panel-state error" role="alert">
            <div className="state-title">Could not load the insights</div>
            <div className="state-text mono">{insights?.error}</div>
          </div>
        )}
        {status === 'empty' && (
          <div className="panel-state">
            <div className="state-title">No insight</div>
            <div className="state-text">Nothing has regressed: no symptom crossed its threshold and no SLO burned.</div>
          </div>
        )}
        {insight !== undefined && <DiagnosisView insight={insight} diagnosis={diagnosis?.value} env={env} grid={grid} />}
      </section>
    </main>
  );
}
