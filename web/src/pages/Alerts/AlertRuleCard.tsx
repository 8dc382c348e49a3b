/**
 * One alerting rule on the Alerts page: a header that opens and closes it (state, name, how many
 * alerts, a link that opens the expression in Explore) and, open, the expression with `for` and
 * `keep_firing_for`, the rule's labels and annotation templates, and a table of its alerts (state,
 * since when, value, labels with a link to Insights narrowed to them, expanded annotations).
 */
import { useId, useState, type ReactNode } from 'react';
import type { ActiveAlert, AlertingRule } from '../../../../src/query/index.js';
import { formatAgo, formatDateTime, formatDurationMs, formatSeconds } from '../../format/units.js';
import { alertValueText, insightsHref, neverEvaluated, sortAlerts } from './alerts-model.js';

/** The glyph and badge class of each state: colour is never the only cue. */
export const ALERT_STATE_LOOK: Readonly<Record<AlertingRule['state'], { glyph: string; badge: string; title: string }>> = {
  firing: { glyph: '✖', badge: 'critical', title: 'Firing' },
  pending: { glyph: '▲', badge: 'warning', title: 'Pending' },
  inactive: { glyph: '✓', badge: 'ok', title: 'Inactive' },
};

/** Labels as chips, sorted by name; `skip` leaves some out (`alertname` repeats the rule's name). */
export function LabelChips({ labels, skip = [] }: { labels: Readonly<Record<string, string>> | undefined; skip?: readonly string[] }): ReactNode {
  const keys = Object.keys(labels ?? {})
    .filter((k) => !skip.includes(k))
    .sort();
  if (keys.length === 0) return <span className="muted">none</span>;
  return (
    <div className="labels-cell">
      {keys.map((k) => (
        <span key={k} className="chip">
          {k}=<b>{labels![k]}</b>
        </span>
      ))}
    </div>
  );
}

/** A state badge with its glyph. */
export function AlertStateBadge({ state, count }: { state: AlertingRule['state'] | ActiveAlert['state']; count?: number }): ReactNode {
  const look = ALERT_STATE_LOOK[state];
  return (
    <span className={`badge ${look.badge}`} data-state={state}>
      <span aria-hidden="true">{look.glyph}</span> {look.title}
      {count === undefined ? '' : ` (${count})`}
    </span>
  );
}

/** "On Insights ↗": the hex grid or variables narrowed to what the alert is about. */
function InsightsLink({ href }: { href: string | undefined }): ReactNode {
  if (href === undefined) return null;
  return (
    <a className="alert-insights-link" href={href} data-testid="alert-insights" title="Open Insights narrowed to what this alert is about">
      On Insights ↗
    </a>
  );
}

/** Props of `AlertRuleCard`. */
export interface AlertRuleCardProps {
  readonly rule: AlertingRule;
  /** The Explore link of the rule's expression. */
  readonly exploreHref: string;
  /** The page's path (the Insights links of the alerts keep a mount prefix). */
  readonly pathname: string;
  /** "Now", for the ages of the alerts. */
  readonly nowMs: number;
  /** Open at first (firing and pending rules are). */
  readonly initiallyOpen: boolean;
}

/** The card. */
export function AlertRuleCard({ rule, exploreHref, pathname, nowMs, initiallyOpen }: AlertRuleCardProps): ReactNode {
  const [open, setOpen] = useState(initiallyOpen);
  const alerts = sortAlerts(rule.alerts);
  // Unique per card: rule names repeat across groups (one SLOBurnRateFast per objective).
  const id = useId();
  return (
    <article className={`alert-rule ${rule.state}`} data-testid="alert-rule" data-rule={rule.name} data-state={rule.state} aria-labelledby={id}>
      <div className="alert-rule-head">
        <button type="button" className="alert-rule-toggle" aria-expanded={open} onClick={() => setOpen((o) => !o)} id={id}>
          <span className="caret" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          <AlertStateBadge state={rule.state} />
          <span className="alert-rule-name mono">{rule.name}</span>
          {alerts.length > 0 && <span className="muted">{alerts.length === 1 ? '1 alert' : `${alerts.length} alerts`}</span>}
          {rule.health === 'err' && <span className="badge critical">✖ error</span>}
        </button>
        <a className="btn small ghost" href={exploreHref} data-testid="alert-rule-explore" title="Open the expression in Explore">
          Explore ↗
        </a>
      </div>
      {open && (
        <div className="alert-rule-body">
          <pre className="mono rule-expr" data-testid="alert-rule-expr">
            {rule.query}
          </pre>
          <dl className="rule-facts">
            <div>
              <dt>for</dt>
              <dd className="mono">{formatDurationMs(rule.duration * 1000)}</dd>
            </div>
            {rule.keepFiringFor !== undefined && rule.keepFiringFor > 0 && (
              <div>
                <dt>keep_firing_for</dt>
                <dd className="mono">{formatDurationMs(rule.keepFiringFor * 1000)}</dd>
              </div>
            )}
            <div>
              <dt>last evaluation</dt>
              <dd title={rule.lastEvaluation}>{neverEvaluated(rule.lastEvaluation) ? 'never' : `${formatAgo(Date.parse(rule.lastEvaluation), nowMs)}, took ${formatSeconds(rule.evaluationTime)}`}</dd>
            </div>
            <div>
              <dt>labels</dt>
              <dd>
                <LabelChips labels={rule.labels} />
              </dd>
            </div>
            {Object.entries(rule.annotations).map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd className="mono annotation">{v}</dd>
              </div>
            ))}
            {rule.lastError !== undefined && rule.lastError !== '' && (
              <div>
                <dt>last error</dt>
                <dd className="error-cell mono">{rule.lastError}</dd>
              </div>
            )}
          </dl>
          {alerts.length > 0 && (
            <table className="data-table alerts-table">
              <thead>
                <tr>
                  <th scope="col">State</th>
                  <th scope="col">Active since</th>
                  <th scope="col" className="numeric">
                    Value
                  </th>
                  <th scope="col">Labels</th>
                  <th scope="col">Annotations</th>
                </tr>
              </thead>
              <tbody>
                {alerts.map((a) => (
                  <tr key={JSON.stringify(a.labels)} data-testid="alert-row" data-state={a.state} className={a.state}>
                    <td>
                      <AlertStateBadge state={a.state} />
                    </td>
                    <td className="num" title={a.activeAt}>
                      {a.activeAt === undefined ? '' : `${formatDateTime(Date.parse(a.activeAt))} (${formatAgo(Date.parse(a.activeAt), nowMs)})`}
                    </td>
                    <td className="numeric num" title={a.value}>
                      {alertValueText(a.value)}
                    </td>
                    <td>
                      <LabelChips labels={a.labels} skip={['alertname']} />
                      <InsightsLink href={insightsHref(a.labels, pathname)} />
                    </td>
                    <td className="annotations-cell">
                      {Object.entries(a.annotations).map(([k, v]) => (
                        <div key={k}>
                          <span className="muted">{k}:</span> {/^https?:\/\//.test(v) ? <a href={v} target="_blank" rel="noreferrer">{v}</a> : v}
                        </div>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </article>
  );
}
