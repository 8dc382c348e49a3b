/**
 * The model of the Alerts and Rules pages, over `/api/v1/rules` in Prometheus' shape: counts of
 * alerting rules per state, groups narrowed by a state filter and a search box whose words must
 * each match the rule (name, expression, labels, annotations, the labels of its alerts, the
 * group and file), the link that opens a rule's expression in Explore, and the alert value as
 * text. Pure.
 */
import type { ActiveAlert, AlertRuleState, AlertingRule, Rule, RuleGroup, RulesData } from '../../../../src/query/index.js';
import { parseSampleValue } from '../../../../src/query/index.js';
import { sig } from '../../format/units.js';
import { ALERT_STATES, DEFAULT_STATE, encodeUrlState, pathForPage, type UrlState } from '../../state/url-state.js';

/** A group as a page shows it: the rules left after filtering, and how many there were. */
export interface GroupView<R extends Rule = Rule> {
  readonly name: string;
  readonly file: string;
  readonly intervalS: number;
  readonly limit: number;
  readonly lastEvaluation: string;
  readonly evaluationTimeS: number;
  readonly rules: readonly R[];
  /** Rules of the kind shown before filtering. */
  readonly total: number;
}

/** The alerting rules of every group. */
export function alertingRules(data: RulesData): AlertingRule[] {
  return data.groups.flatMap((g) => g.rules.filter((r): r is AlertingRule => r.type === 'alerting'));
}

/** Alerting rules per state (the page's counters), and active alerts per state. */
export function alertStateCounts(data: RulesData): { rules: Record<AlertRuleState, number>; alerts: Record<'firing' | 'pending', number> } {
  const rules = Object.fromEntries(ALERT_STATES.map((s) => [s, 0])) as Record<AlertRuleState, number>;
  const alerts = { firing: 0, pending: 0 };
  for (const r of alertingRules(data)) {
    rules[r.state]++;
    for (const a of r.alerts) alerts[a.state]++;
  }
  return { rules, alerts };
}

function pairs(m: Readonly<Record<string, string>> | undefined): string[] {
  return Object.entries(m ?? {}).flatMap(([k, v]) => [`${k}=${v}`, `${k}="${v}"`, v]);
}

/** Whether `rule` of `group` matches every word of `search` (case-insensitive). */
export function ruleMatches(rule: Rule, group: Pick<RuleGroup, 'name' | 'file'>, search: string): boolean {
  const words = search.toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return true;
  const hay = [
    rule.name,
    rule.query,
    rule.health,
    rule.lastError ?? '',
    group.name,
    group.file,
    ...pairs(rule.labels),
    ...(rule.type === 'alerting' ? [rule.state, ...pairs(rule.annotations), ...rule.alerts.flatMap((a) => [...pairs(a.labels), ...pairs(a.annotations)])] : []),
  ]
    .join('\n')
    .toLowerCase();
  return words.every((w) => hay.includes(w));
}

function view<R extends Rule>(g: RuleGroup, all: readonly R[], shown: readonly R[]): GroupView<R> {
  return {
    name: g.name,
    file: g.file,
    intervalS: g.interval,
    limit: g.limit,
    lastEvaluation: g.lastEvaluation,
    evaluationTimeS: g.evaluationTime,
    rules: shown,
    total: all.length,
  };
}

/**
 * The groups of the Alerts page: alerting rules in file order, narrowed to `states` (none: every
 * state) and `search`; groups left without a rule are dropped, and so are groups without
 * alerting rules.
 */
export function alertGroups(data: RulesData, states: readonly AlertRuleState[], search: string): GroupView<AlertingRule>[] {
  const out: GroupView<AlertingRule>[] = [];
  for (const g of data.groups) {
    const all = g.rules.filter((r): r is AlertingRule => r.type === 'alerting');
    const shown = all.filter((r) => (states.length === 0 || states.includes(r.state)) && ruleMatches(r, g, search));
    if (shown.length > 0) out.push(view(g, all, shown));
  }
  return out;
}

/** The groups of the Rules page: every rule, narrowed by `search`; groups without a match are dropped. */
export function ruleGroups(data: RulesData, search: string): GroupView[] {
  const out: GroupView[] = [];
  for (const g of data.groups) {
    const shown = g.rules.filter((r) => ruleMatches(r, g, search));
    if (shown.length > 0) out.push(view(g, g.rules, shown));
  }
  return out;
}

/** Alerts worst first (firing before pending), then by when they became active, oldest first. */
export function sortAlerts(alerts: readonly ActiveAlert[]): ActiveAlert[] {
  const rank = (a: ActiveAlert): number => (a.state === 'firing' ? 0 : 1);
  return [...alerts].sort((a, b) => rank(a) - rank(b) || (a.activeAt ?? '').localeCompare(b.activeAt ?? ''));
}

/**
 * The Explore link of an expression: the page next to `pathname` with the query in `expr` and
 * the rest of `state` (range, theme) kept; the page-specific filter and states are left out.
 */
export function exploreHref(expr: string, pathname: string, state: UrlState = DEFAULT_STATE): string {
  const qs = encodeUrlState({ ...state, expr, exploreTab: 'graph', filter: '', alertStates: [] });
  return `${pathForPage('explore', pathname)}?${qs}`;
}

/**
 * The Insights view of what an alert is about: its instance selected on the hex grid, else its
 * replica (the grid's replica view), else its endpoint and component as variables; undefined for
 * an alert without identity labels. The rest of `state` (range, theme) is kept.
 */
export function insightsHref(labels: Readonly<Record<string, string>>, pathname: string, state: UrlState = DEFAULT_STATE): string | undefined {
  const base = { ...state, filter: '', alertStates: [], expr: '', selection: [], hexView: DEFAULT_STATE.hexView };
  let next: UrlState | undefined;
  if (labels.instance !== undefined && labels.instance !== '') next = { ...base, selection: [labels.instance] };
  else if (labels.replica !== undefined && labels.replica !== '') next = { ...base, hexView: 'replica', selection: [labels.replica] };
  else {
    const vars: Record<string, string[]> = {};
    for (const k of ['endpoint', 'component']) if (labels[k] !== undefined && labels[k] !== '') vars[k] = [labels[k]];
    if (Object.keys(vars).length > 0) next = { ...base, vars };
  }
  if (next === undefined) return undefined;
  const qs = encodeUrlState(next);
  return `${pathForPage('insights', pathname)}${qs === '' ? '' : `?${qs}`}`;
}

/** An alert's value as the page shows it: Prometheus sends `%e` text (`9.7e-01`), shown with 4 significant digits. */
export function alertValueText(value: string): string {
  const v = parseSampleValue(value);
  return Number.isFinite(v) ? sig(v, 4) : value;
}

/** Whether an RFC 3339 time is Go's zero time (a rule or group never evaluated). */
export function neverEvaluated(rfc3339: string): boolean {
  return rfc3339 === '' || rfc3339.startsWith('0001-01-01');
}
