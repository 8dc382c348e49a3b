/**
 * Joining per-component series to the dashboard's selection. Series about a deployment as a whole
 * (replica counts, scaling actions, quality scores: the `component` scope of `scopeOf`) carry no
 * instance or AZ, so a hex-cell click cannot filter their selectors; a panel showing them keeps the
 * components that have a replica in the selection instead, and so follows the click too.
 */
import { sel } from './queries.js';

/** One series per component with at least one replica target (serving, starting or down) in the selection. */
export function componentsInSelection(): string {
  return `group by (component) (${sel('up', 'replica!=""')})`;
}

/** `expr` (whose series carry `component`), kept only for the components in the selection. */
export function ofSelectedComponents(expr: string): string {
  return `(${expr}) and on (component) ${componentsInSelection()}`;
}
