/**
 * Everything a link should reproduce lives in the URL's query string: the time range, refresh
 * interval, dashboard variables, the hex-grid selection and view, the quantile, panel tabs and
 * health thresholds, Explore's query and tab, the filter box and alert states of Targets, Alerts
 * and Rules, and an explicit theme.
 * `decodeUrlState(encodeUrlState(s))` gives `s` back for every normalized state; defaults are
 * left out of the URL so that a plain `/` is the default page.
 *
 * | key | meaning |
 * | --- | --- |
 * | `range=1h` or `from=<RFC 3339>&to=<RFC 3339>` | time range (default last 1h) |
 * | `refresh=15s` | auto refresh (default off) |
 * | `var-<name>=<value>` (repeated) | a variable's selected values; absent: all / default |
 * | `hex=replica` | hex-grid view (default `instance`) |
 * | `<view>=<value>` (repeated) | hex-grid selection, under the view's name: `instance=i-1&instance=i-2`, or `replica=r1` with `hex=replica` |
 * | `quantile=0.5` | latency quantile (default 0.99) |
 * | `tab-<panel>=<tab>` | a panel's tab (default: its first) |
 * | `th-<refId>=<warning>,<critical>` | a health rule's thresholds (default: the dashboard's) |
 * | `expr=<PromQL>`, `etab=table` | Explore's query and tab (default graph) |
 * | `filter=<text>` | the filter box of Targets, Alerts and Rules |
 * | `state=firing` (repeated) | the Alerts page's state filter (default: every state) |
 * | `insight=<id>` | the insight the Diagnosis page shows (default: the newest) |
 * | `theme=dark` | theme override (otherwise the stored choice or the OS preference) |
 */
import { formatDurationMs, parseDurationMs } from '../format/units.js';
import { DEFAULT_RANGE, parseTimeParam, type TimeRange } from './time-range.js';

/** The pages, by URL path. */
export type Page = 'insights' | 'cost' | 'explore' | 'alerts' | 'rules' | 'targets' | 'diagnosis' | 'quality';

/** The pages besides Insights, each at `/<page>` (Prometheus' paths for alerts, rules and targets). */
const SUB_PAGES: ReadonlySet<string> = new Set<Page>(['cost', 'explore', 'alerts', 'rules', 'targets', 'diagnosis', 'quality']);

/** An alerting rule's state, as the Alerts page filters on it. */
export type AlertStateFilter = 'firing' | 'pending' | 'inactive';

/** Every alert state, worst first. */
export const ALERT_STATES: readonly AlertStateFilter[] = ['firing', 'pending', 'inactive'];

/** Explore's result views. */
export type ExploreTab = 'graph' | 'table';

/** The UI's theme. */
export type Theme = 'dark' | 'light';

/** The URL-borne state of the whole app. */
export interface UrlState {
  readonly range: TimeRange;
  readonly refreshMs: number;
  /** Selected values per variable; a variable absent from the record has its default (all). */
  readonly vars: Readonly<Record<string, readonly string[]>>;
  /** Hex-grid selection: values of the current view's label (in the URL under the view's name). */
  readonly selection: readonly string[];
  readonly hexView: string;
  /** The latency quantile, as PromQL writes it (`0.99`). */
  readonly quantile: string;
  /** Panel id → selected tab id. */
  readonly tabs: Readonly<Record<string, string>>;
  /** Health rule refId → [warning, critical] thresholds set in the UI. */
  readonly thresholds: Readonly<Record<string, readonly number[]>>;
  readonly expr: string;
  readonly exploreTab: ExploreTab;
  readonly filter: string;
  /** The Alerts page's state filter; empty: every state. */
  readonly alertStates: readonly AlertStateFilter[];
  /** The Diagnosis page's insight id; '' for the newest. */
  readonly insight: string;
  readonly theme?: Theme;
}

/** The state of a URL without a query string. */
export const DEFAULT_STATE: UrlState = {
  range: DEFAULT_RANGE,
  refreshMs: 0,
  vars: {},
  selection: [],
  hexView: 'instance',
  quantile: '0.99',
  tabs: {},
  thresholds: {},
  expr: '',
  exploreTab: 'graph',
  filter: '',
  alertStates: [],
  insight: '',
};

/** The page a path shows: `/explore`, `/alerts`, `/rules` and `/targets` (at any depth, for a prefixed mount), else Insights. */
export function pageFromPath(pathname: string): Page {
  const last = pathname.replace(/\/+$/, '').split('/').pop() ?? '';
  return SUB_PAGES.has(last) ? (last as Page) : 'insights';
}

/** The path of `page` next to the current `pathname` (keeps a mount prefix such as `/infersight/`). */
export function pathForPage(page: Page, pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  const parts = trimmed.split('/');
  const last = parts[parts.length - 1];
  const base = SUB_PAGES.has(last) ? parts.slice(0, -1).join('/') : trimmed;
  return page === 'insights' ? `${base}/` : `${base}/${page}`;
}

/** Parses a query string (`?range=1h&var-az=a`, with or without `?`). Unknown keys are ignored; bad values fall back to defaults. */
export function decodeUrlState(search: string): UrlState {
  const p = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const vars: Record<string, string[]> = {};
  const tabs: Record<string, string> = {};
  const thresholds: Record<string, number[]> = {};
  for (const [key, value] of p) {
    if (key.startsWith('var-') && key.length > 4) (vars[key.slice(4)] ??= []).push(value);
    else if (key.startsWith('tab-') && key.length > 4 && value !== '') tabs[key.slice(4)] = value;
    else if (key.startsWith('th-') && key.length > 3) {
      const nums = value.split(',').map(Number);
      if (nums.length > 0 && nums.every(Number.isFinite)) thresholds[key.slice(3)] = nums;
    }
  }
  const theme = p.get('theme');
  const etab = p.get('etab');
  const hexView = nonEmpty(p.get('hex')) ?? DEFAULT_STATE.hexView;
  return {
    range: decodeRange(p),
    refreshMs: parseDurationMs(p.get('refresh') ?? '') ?? 0,
    vars,
    selection: RESERVED.has(hexView) ? [] : p.getAll(hexView).filter((s) => s !== ''),
    hexView,
    quantile: decodeQuantile(p.get('quantile')),
    tabs,
    thresholds,
    expr: p.get('expr') ?? '',
    exploreTab: etab === 'table' ? 'table' : 'graph',
    filter: p.get('filter') ?? '',
    alertStates: ALERT_STATES.filter((s) => p.getAll('state').includes(s)),
    insight: p.get('insight') ?? '',
    ...(theme === 'dark' || theme === 'light' ? { theme } : {}),
  };
}

/** Writes `s` as a query string without the leading `?`; defaults are left out, keys in a fixed order. */
export function encodeUrlState(s: UrlState): string {
  const p = new URLSearchParams();
  if (s.range.kind === 'absolute') {
    p.set('from', new Date(s.range.fromMs).toISOString());
    p.set('to', new Date(s.range.toMs).toISOString());
  } else if (s.range.durationMs !== (DEFAULT_RANGE as { durationMs: number }).durationMs) {
    p.set('range', formatDurationMs(s.range.durationMs));
  }
  if (s.refreshMs > 0) p.set('refresh', formatDurationMs(s.refreshMs));
  for (const name of Object.keys(s.vars).sort()) {
    for (const v of s.vars[name]) p.append(`var-${name}`, v);
  }
  if (s.hexView !== DEFAULT_STATE.hexView) p.set('hex', s.hexView);
  if (!RESERVED.has(s.hexView)) for (const v of s.selection) p.append(s.hexView, v);
  if (s.quantile !== DEFAULT_STATE.quantile) p.set('quantile', s.quantile);
  for (const id of Object.keys(s.tabs).sort()) p.set(`tab-${id}`, s.tabs[id]);
  for (const id of Object.keys(s.thresholds).sort()) p.set(`th-${id}`, s.thresholds[id].join(','));
  if (s.expr !== '') p.set('expr', s.expr);
  if (s.exploreTab !== 'graph') p.set('etab', s.exploreTab);
  if (s.filter !== '') p.set('filter', s.filter);
  for (const st of ALERT_STATES) if (s.alertStates.includes(st)) p.append('state', st);
  if (s.insight !== '') p.set('insight', s.insight);
  if (s.theme !== undefined) p.set('theme', s.theme);
  return p.toString();
}

/** Keys with a meaning of their own: a hex-grid view of one of these names cannot carry a selection. */
const RESERVED: ReadonlySet<string> = new Set(['range', 'from', 'to', 'refresh', 'hex', 'quantile', 'expr', 'etab', 'filter', 'state', 'insight', 'theme']);

function decodeRange(p: URLSearchParams): TimeRange {
  const from = parseTimeParam(p.get('from') ?? '');
  const to = parseTimeParam(p.get('to') ?? '');
  if (from !== undefined && to !== undefined && to > from) return { kind: 'absolute', fromMs: from, toMs: to };
  const d = parseDurationMs(p.get('range') ?? '');
  return d === undefined ? DEFAULT_RANGE : { kind: 'relative', durationMs: d };
}

function decodeQuantile(text: string | null): string {
  if (text === null) return DEFAULT_STATE.quantile;
  const q = Number(text);
  return Number.isFinite(q) && q > 0 && q < 1 && text.trim() !== '' ? text.trim() : DEFAULT_STATE.quantile;
}

function nonEmpty(s: string | null): string | undefined {
  return s === null || s === '' ? undefined : s;
}
