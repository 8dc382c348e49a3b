/**
 * Rules (`/rules`, as in Prometheus): every group from `/api/v1/rules` with its interval, limit,
 * last evaluation and how long it took, and each rule (recording and alerting) with its
 * expression (a link into Explore), labels, health, last error, last evaluation and evaluation
 * time; unhealthy rules stand out. A search box (`filter=`) narrows the rules.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { RulesData } from '../../../../src/query/index.js';
import { formatAgo, formatDurationMs, formatSeconds } from '../../format/units.js';
import { updateUrlState } from '../../state/url-store.js';
import type { UrlState } from '../../state/url-state.js';
import { AlertStateBadge, LabelChips } from '../Alerts/AlertRuleCard.js';
import { useRulesData } from '../Alerts/Alerts.js';
import { exploreHref, neverEvaluated, ruleGroups } from '../Alerts/alerts-model.js';
import { RulesStatus } from '../Alerts/RulesStatus.js';
import '../../panels/TablePanel/TablePanel.css';
import '../Targets/Targets.css';
import '../Alerts/Alerts.css';

const HEALTH_LOOK = { ok: ['ok', '✓'], err: ['critical', '✖'], unknown: ['', '?'] } as const;

function ago(rfc3339: string, nowMs: number): string {
  return neverEvaluated(rfc3339) ? 'never' : formatAgo(Date.parse(rfc3339), nowMs);
}

/** The page's body over a rules answer (pure rendering). */
export function RulesView({ data, state, nowMs, pathname }: { data: RulesData; state: UrlState; nowMs: number; pathname: string }): ReactNode {
  const groups = ruleGroups(data, state.filter);
  if (groups.length === 0) {
    return (
      <div className="panel-state">
        <span className="state-icon" aria-hidden="true">
          ∅
        </span>
        <div className="state-title">No rule matches the filter</div>
      </div>
    );
  }
  return (
    <>
      {groups.map((g) => (
        <section key={`${g.file}\u0001${g.name}`} className="alert-group" data-testid="rule-group" data-group={g.name} aria-label={`Group ${g.name}`}>
          <h2 className="alert-group-head">
            <span className="pool-name">{g.name}</span>
            <span className="muted mono">{g.file}</span>
            <span className="muted">
              every {formatDurationMs(g.intervalS * 1000)}
              {g.limit > 0 ? ` · limit ${g.limit}` : ''} · last evaluation {ago(g.lastEvaluation, nowMs)} · took {formatSeconds(g.evaluationTimeS)}
            </span>
          </h2>
          <table className="data-table targets-table rules-table">
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Expression</th>
                <th scope="col">Labels</th>
                <th scope="col">Health</th>
                <th scope="col">Last evaluation</th>
                <th scope="col" className="numeric">
                  Took
                </th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {g.rules.map((r) => {
                const [badge, glyph] = HEALTH_LOOK[r.health] ?? HEALTH_LOOK.unknown;
                return (
                  <tr key={r.type + r.name + r.query} data-testid="rule-row" data-rule={r.name} data-type={r.type} data-health={r.health} className={r.health === 'err' ? 'down' : ''}>
                    <td className="mono">
                      <div className="rule-name">
                        <span className="muted">{r.type === 'alerting' ? 'alert:' : 'record:'}</span> {r.name}
                      </div>
                      {r.type === 'alerting' && (
                        <div className="rule-sub">
                          <AlertStateBadge state={r.state} count={r.alerts.length > 0 ? r.alerts.length : undefined} /> <span className="muted">for {formatDurationMs(r.duration * 1000)}</span>
                        </div>
                      )}
                    </td>
                    <td className="mono rule-query">
                      <a href={exploreHref(r.query, pathname, state)} data-testid="rule-explore" title="Open in Explore">
                        {r.query}
                      </a>
                    </td>
                    <td>
                      <LabelChips labels={r.labels} />
                    </td>
                    <td>
                      <span className={`badge ${badge}`}>
                        <span aria-hidden="true">{glyph}</span> {r.health}
                      </span>
                    </td>
                    <td className="num" title={r.lastEvaluation}>
                      {ago(r.lastEvaluation, nowMs)}
                    </td>
                    <td className="numeric num">{formatSeconds(r.evaluationTime)}</td>
                    <td className="error-cell mono">{r.lastError ?? ''}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      ))}
    </>
  );
}

/** The page. */
export function RulesPage({ state }: { state: UrlState }): ReactNode {
  const res = useRulesData();
  const [filter, setFilter] = useState(state.filter);
  useEffect(() => setFilter(state.filter), [state.filter]);
  const pathname = typeof window === 'undefined' ? '/rules' : window.location.pathname;
  const all = res?.value?.groups.flatMap((g) => g.rules) ?? [];
  const failing = all.filter((r) => r.health === 'err').length;
  return (
    <main className="targets alerts" aria-label="Rules">
      <div className="targets-head">
        <h1>Rules</h1>
        <span className="badge">{all.length} rules</span>
        {failing > 0 && <span className="badge critical">✖ {failing} failing</span>}
        <div className="toolbar-spacer" />
        <input
          className="input targets-filter"
          type="search"
          placeholder="Filter by name, expression, label, health or error…"
          value={filter}
          onChange={(e) => {
            setFilter(e.target.value);
            updateUrlState({ filter: e.target.value });
          }}
          aria-label="Filter rules"
          data-testid="rules-search"
        />
      </div>
      <RulesStatus res={res} testId="rules-list" what="rules" isEmpty={(d) => d.groups.every((g) => g.rules.length === 0)}>
        {(data, atMs) => <RulesView data={data} state={state} nowMs={atMs} pathname={pathname} />}
      </RulesStatus>
    </main>
  );
}
