/**
 * What a page hands every panel besides its definition: the query context (variables,
 * selection, quantile, tabs, window), the annotation events, the active alerts, and the callbacks through which a
 * panel changes page state (select cells, zoom, switch a tab). The object is rebuilt only when
 * one of its parts changes, so memoized panels skip renders the change does not concern.
 */
import type { ActiveAlert } from '../../../src/query/index.js';
import type { AnnotationEvent } from './model/annotations.js';
import type { PanelContext } from './model/panel-queries.js';

/** How a click changes the selection: replace it, toggle one value (shift/ctrl-click), or clear it. */
export type SelectMode = 'replace' | 'toggle' | 'clear';

/** The page environment of a panel. */
export interface PanelEnv {
  readonly ctx: PanelContext;
  readonly annotations: readonly AnnotationEvent[];
  /** The server's pending and firing alerts (`/api/v1/alerts`; empty when it has no rules API): the hex grid marks the cells they concern. */
  readonly alerts: readonly ActiveAlert[];
  /** Values of the `az` label seen over the range (the AZ traffic panel flags silent ones). */
  readonly knownAzs: readonly string[];
  /** Health thresholds set in the UI (refId → [warning, critical]). */
  readonly thresholds: Readonly<Record<string, readonly number[]>>;
  /**
   * Changes the hex-grid selection. `view` (a hex-grid view) switches the view first when the
   * value names another kind of cell (a row of the instance table while the grid shows replicas).
   */
  readonly select: (value: string | undefined, mode: SelectMode, view?: string) => void;
  /** Sets a variable's values (the AZ selector of the traffic panel). */
  readonly setVariable: (name: string, values: readonly string[]) => void;
  readonly setHexView: (view: string) => void;
  readonly setTab: (panelId: string, tabId: string) => void;
  readonly setThresholds: (refId: string, limits: readonly number[] | undefined) => void;
  readonly zoom: (fromMs: number, toMs: number) => void;
  /** The hex grid reports which instances each cell value covers (a replica or endpoint selection filters by them). */
  readonly reportCells: (cellInstances: ReadonlyMap<string, readonly string[]>) => void;
}
