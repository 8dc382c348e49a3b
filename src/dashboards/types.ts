/**
 * Dashboards as data: what a panel shows (PromQL text with variables), in which unit, with which
 * thresholds, drawn how. The built-in UI (web/) renders these definitions and `grafana.ts`
 * exports the same ones as Grafana dashboard JSON, so both show the same queries.
 *
 * Variables are written `$name` or `${name}` in PromQL, as in Grafana. Label filters use regex
 * matchers (`az=~"$az"`), so "all" is `.*` and a selection of several values is an alternation;
 * `interpolate` (variables.ts) does this for the UI and the tests, Grafana does it itself.
 */

/** How a value is formatted: the UI's formatter and Grafana's unit id are chosen from this. */
export type Unit =
  | 'seconds'
  | 'ratio' // 0–1, shown as a percentage
  | 'percent' // 0–100
  | 'bytes'
  | 'tokens'
  | 'tokens/s'
  | 'req/s'
  | 'count'
  | 'dollars'
  | 'dollars/h'
  | 'celsius' // temperatures
  | 'hertz' // clock frequencies
  | 'none';

/** How a panel is drawn. */
export type Visualization =
  | 'stat' // one number (with a sparkline when the UI has room)
  | 'timeseries' // uPlot lines over the time range
  | 'heatmap' // a classic histogram's buckets over time (`le` on the y axis; the series are cumulative `_bucket` rates, one per `le`: take differences)
  | 'table' // one row per series of the first query, columns joined on `joinOn` labels
  | 'hexgrid'; // the fleet honeycomb: one cell per series of the `cells` query

/**
 * A colour step: from `value` upward (until the next step) a value is in `state`. Steps are listed
 * in ascending `value` order; a value below the first step is `ok`, and NaN or a missing series has
 * no state (drawn neutral, never as `ok`).
 */
export interface Threshold {
  readonly value: number;
  readonly state: 'ok' | 'warning' | 'critical';
}

/** One PromQL query of a panel. */
export interface PanelQuery {
  /** Unique within the panel; table columns and hex-grid fields are addressed by it. */
  readonly refId: string;
  /** PromQL with `$variables`. */
  readonly expr: string;
  /** Series name in legends, Grafana style: `{{az}} {{engine}}`. Empty: the label set. */
  readonly legend?: string;
  /** Column or field title (tables, hex-grid tooltips). */
  readonly title?: string;
  /** Unit of this query when it differs from the panel's. */
  readonly unit?: Unit;
  /** Colour steps of this query's values when they differ from the panel's (a table column, a hex-grid field). */
  readonly thresholds?: readonly Threshold[];
  /** Drawn as a dashed reference line, not as data (a benchmark, an SLO). */
  readonly reference?: boolean;
  /** Evaluated as an instant query at the end of the range (tables, hex grids, stats). */
  readonly instant?: boolean;
}

/**
 * A horizontal band drawn across a time-series panel (for example the KV-pressure band). `from` and
 * `to` are in the panel's unit (0.4–0.5 on a `ratio` panel) and equal the variable's default.
 */
export interface Band {
  readonly from: number;
  readonly to: number;
  readonly label: string;
  /** The text variable that holds the band when it is configurable (`40-50`: see `parseBand`). */
  readonly variable?: string;
}

/** Alternative query sets of one panel, shown as tabs (Invoke / Streaming). */
export interface PanelTab {
  readonly id: string;
  readonly title: string;
  readonly queries: readonly PanelQuery[];
}

/**
 * How the hex grid colours and describes its cells.
 *
 * The `cells` query returns one series per replica (engine process) with the identity labels
 * (instance, instance_type, az, engine, component, endpoint, replica, model); its values are not
 * used. A view merges the series that share its label (`views[view]`) into one cell, so the instance
 * view has one cell per instance and the endpoint view one per endpoint. Every other query of the
 * panel is a field: one series per `joinOn` label value (`by (instance)`), shown in the tooltip
 * under its `title` and `unit`; a cell shows the fields of the instances it covers, and takes the
 * worst health state over them.
 */
/** A health rule: a query's per-instance value and its colour steps. */
export interface HealthRuleSpec {
  readonly refId: string;
  readonly thresholds: readonly Threshold[];
}

/**
 * The lifecycle states of an instance, each read from a per-instance query (`by (instance)`) whose
 * value above 0 puts the instance in that state: `down` (an engine on it crashed or cannot be
 * scraped), `starting` (a replica on it is in its cold start: created, downloading, loading
 * weights, warming up) and `idle` (the instance is scraped but runs no engine). They are not
 * thresholds on a value, so they are listed apart from the rules; docs/design/health-states.md
 * ranks them against the rules' warning and critical.
 */
export interface LifecycleQueries {
  readonly down?: string;
  readonly starting?: string;
  readonly idle?: string;
}

/** How a table judges each row's health (the instance table's Health column): as the hex grid does. */
export interface HealthColumn {
  readonly rules: readonly HealthRuleSpec[];
  readonly lifecycle?: LifecycleQueries;
}

export interface HexGridOptions {
  /** refId of the query whose series are the cells (one per replica); its labels describe the cell. */
  readonly cells: string;
  /** The label that names a cell in each grid view, e.g. `{ instance: 'instance', replica: 'replica', endpoint: 'endpoint' }`; the first is the default view. */
  readonly views: Readonly<Record<string, string>>;
  /** The label the cells are grouped by (AZ). */
  readonly groupBy: string;
  /** Health rules: a cell takes the worst state over these (refId of a query, its thresholds). */
  readonly health: readonly HealthRuleSpec[];
  /** Lifecycle states (down, starting, idle) from per-instance queries of the panel. */
  readonly lifecycle?: LifecycleQueries;
  /** The variable a click sets: the cell's `instance` label (every instance of a merged cell). */
  readonly filterVariable: string;
  /** The label the field queries are joined to the cells on (default `instance`). */
  readonly joinOn?: string;
}

/** One panel. */
export interface Panel {
  /** Unique within the dashboard, kebab-case; the UI and Grafana export use it as the panel key. */
  readonly id: string;
  readonly title: string;
  /** One or two sentences: what the panel answers. Shown as the panel's help. */
  readonly description: string;
  readonly viz: Visualization;
  readonly unit: Unit;
  /** Queries; empty when `tabs` holds them. */
  readonly queries: readonly PanelQuery[];
  readonly tabs?: readonly PanelTab[];
  readonly thresholds?: readonly Threshold[];
  readonly band?: Band;
  readonly hexgrid?: HexGridOptions;
  /** A table's Health column (one state per row, as the hex grid judges an instance); its lifecycle queries are not shown as columns. */
  readonly healthColumn?: HealthColumn;
  /** Labels a table joins its queries on (default `['instance']`). */
  readonly joinOn?: readonly string[];
  /** Width in grid columns of 24, as Grafana's gridPos. */
  readonly width: number;
  /** Height in grid rows (one row is about 30 px), as Grafana's gridPos. */
  readonly height: number;
  /** Shown in the empty state: why a panel may have no data ("needs the gateway"). */
  readonly emptyHint?: string;
  /** The empty state's title ("No SLO data"); "No data" when absent. Grafana shows it as the panel's no-value text. */
  readonly emptyTitle?: string;
}

/** A dashboard variable. */
export interface Variable {
  readonly name: string;
  readonly label: string;
  /**
   * `labelValues`: the values of `label` on `metric` (Grafana `label_values(metric, label)`),
   * multi-select with "all". `custom`: a fixed option list, single select (P50/P90/P99).
   * `text`: free text (a threshold band such as `40-50`).
   */
  readonly kind: 'labelValues' | 'custom' | 'text';
  /** For `labelValues`: a plain metric name whose label values are offered. */
  readonly metric?: string;
  /**
   * For `labelValues`: a series selector used instead of `metric` that narrows the options by the
   * variables before it (`up{endpoint=~"$endpoint"}`: the components of the chosen endpoints).
   * Interpolate it first (`variableSelector` in variables.ts); `metric` is its metric name.
   */
  readonly match?: string;
  /** For `labelValues`: the label whose values are offered. */
  readonly labelName?: string;
  readonly options?: readonly { readonly value: string; readonly text: string }[];
  /** Default value; for `labelValues` the default is all (`ALL` in variables.ts). */
  readonly default?: string;
  /** Hidden from the variable bar (set by clicks, such as the hex grid's instance filter). */
  readonly hidden?: boolean;
}

/** Events drawn as vertical markers across every time-series panel of the dashboard. */
export interface Annotation {
  readonly id: string;
  readonly title: string;
  /** PromQL; each step where a series has a value marks an event; its labels describe it. */
  readonly expr: string;
  /** Text of the marker, Grafana style (`{{replica}} cold start`). */
  readonly text: string;
  /** A CSS colour (Grafana's `iconColor`). */
  readonly color: string;
  /** Largest step the query is evaluated at, as a Prometheus duration (Grafana's `step`); default `1m`. */
  readonly step?: string;
}

/** A group of panels under a heading. */
export interface Row {
  readonly id: string;
  readonly title: string;
  readonly panels: readonly Panel[];
}

/** One dashboard. */
export interface Dashboard {
  /** URL-safe id: `GET /api/v1/dashboards/<id>/grafana`. */
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly variables: readonly Variable[];
  readonly rows: readonly Row[];
  readonly annotations: readonly Annotation[];
}
