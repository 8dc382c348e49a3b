/**
 * Alerts (`/alerts`, as in Prometheus): the alerting rules of every group from `/api/v1/rules`,
 * with counters per state that filter (firing / pending / inactive, in the URL as `state=`), a
 * search box (`filter=`), and per rule its alerts, labels, annotations, since when and value, and
 * a link that opens its expression in Explore. Refreshes with the page's refresh interval.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { AlertRuleState, RulesData } from '../../../../src/query/index.js';
import { api } from '../../api/api-client.js';
import { useApiResource, type ApiResource } from '../../api/use-api-resource.js';
import { updateUrlState } from '../../state/url-store.js';
import { ALERT_STATES, pathForPage, type UrlState } from '../../state/url-state.js';
import { alertGroups, alertingRules, alertStateCounts, exploreHref } from './alerts-model.js';
import { ALERT_STATE_LOOK, AlertRuleCard } from './AlertRuleCard.js';
import { RulesStatus } from './RulesStatus.js';
import '../../panels/TablePanel/TablePanel.css';
import '../Targets/Targets.css';
import './Alerts.css';

/** The rules answer, shared by the Alerts and Rules pages (one request per page and refresh). */
export function useRulesData(): ApiResource<RulesData> | undefined {
  return useApiResource('rules', async (signal) => (await api().rules.rules({ signal })).data);
}

/** Props of `AlertsView`. */
export interface AlertsViewProps {
  readonly data: RulesData;
  readonly state: UrlState;
  /** "Now", for the ages of the alerts. */
  readonly nowMs: number;
  /** The page's path (links keep a mount prefix). */
  readonly pathname: string;
}

/** The page's body over a rules answer (pure rendering; the page supplies the data). */
export function AlertsView({ data, state, nowMs, pathname }: AlertsViewProps): ReactNode {
  const groups = alertGroups(data, state.alertStates, state.filter);
  if (alertingRules(data).length === 0) {
    return (
      <div className="panel-state">
        <span className="state-icon" aria-hidden="true">
          ∅
        </span>
        <div>
          <div className="state-title">No alerting rules</div>
          <div className="state-text">
            Load rule files with <span className="mono">rule_files:</span> in the configuration; recording rules are on the <a href={pathForPage('rules', pathname)}>Rules</a> page.
          </div>
        </div>
      </div>
    );
  }
  if (groups.length === 0) {
    return (
      <div className="panel-state">
        <span className="state-icon" aria-hidden="true">
          ∅
        </span>
        <div className="state-title">No alerting rule matches the filter</div>
      </div>
    );
  }
  return (
    <>
      {groups.map((g) => (
        <section key={`${g.file}\u0001${g.name}`} className="alert-group" data-testid="alert-group" data-group={g.name} aria-label={`Group ${g.name}`}>
          <h2 className="alert-group-head">
            <span className="pool-name">{g.name}</span>
            <span className="muted mono">{g.file}</span>
            {g.rules.length < g.total && (
              <span className="muted">
                {g.rules.length} of {g.total} rules shown
              </span>
            )}
          </h2>
          {g.rules.map((r) => (
            <AlertRuleCard key={r.name + r.query} rule={r} exploreHref={exploreHref(r.query, pathname, state)} pathname={pathname} nowMs={nowMs} initiallyOpen={r.state !== 'inactive'} />
          ))}
        </section>
      ))}
    </>
  );
}

/** The state toggles: each shows its count; none pressed means every state. */
function StateFilter({ counts, selected }: { counts: Record<AlertRuleState, number>; selected: readonly AlertRuleState[] }): ReactNode {
  const toggle = (s: AlertRuleState): void =>
    updateUrlState((u) => ({ alertStates: u.alertStates.includes(s) ? u.alertStates.filter((x) => x !== s) : ALERT_STATES.filter((x) => x === s || u.alertStates.includes(x)) }));
  return (
    <div className="toolbar-group" role="group" aria-label="Filter by state" data-testid="alert-state-filters">
      {ALERT_STATES.map((s) => (
        <button
          key={s}
          type="button"
          className={`btn small alert-state-toggle ${ALERT_STATE_LOOK[s].badge}`}
          aria-pressed={selected.includes(s)}
          onClick={() => toggle(s)}
          data-testid="alert-state-filter"
          data-value={s}
          data-count={counts[s]}
        >
          <span aria-hidden="true">{ALERT_STATE_LOOK[s].glyph}</span> {ALERT_STATE_LOOK[s].title} <span className="num">{counts[s]}</span>
        </button>
      ))}
    </div>
  );
}

/** The page. */
export function AlertsPage({ state }: { state: UrlState }): ReactNode {
  const res = useRulesData();
  const [filter, setFilter] = useState(state.filter);
  useEffect(() => setFilter(state.filter), [state.filter]);
  const pathname = typeof window === 'undefined' ? '/alerts' : window.location.pathname;
  const counts = res?.value === undefined ? { firing: 0, pending: 0, inactive: 0 } : alertStateCounts(res.value).rules;
  return (
    <main className="targets alerts" aria-label="Alerts">
      <div className="targets-head">
        <h1>Alerts</h1>
        <StateFilter counts={counts} selected={state.alertStates} />
        <div className="toolbar-spacer" />
        <input
          className="input targets-filter"
          type="search"
          placeholder="Filter by name, expression, label (severity=page) or annotation…"
          value={filter}
          onChange={(e) => {
            setFilter(e.target.value);
            updateUrlState({ filter: e.target.value });
          }}
          aria-label="Filter alerts"
          data-testid="alerts-search"
        />
      </div>
      <RulesStatus res={res} testId="alerts-list" what="alerting rules" isEmpty={(d) => alertingRules(d).length === 0}>
        {(data, atMs) => <AlertsView data={data} state={state} nowMs={atMs} pathname={pathname} />}
      </RulesStatus>
    </main>
  );
}
