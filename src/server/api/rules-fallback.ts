/**
 * `/api/v1/rules` and `/api/v1/alerts` for a server that evaluates no rules: Prometheus' answers
 * without rule files (no groups, no alerts), so the UI's Alerts page and hex grid, and Grafana,
 * read "nothing configured" instead of a 404. The rules engine's own routes replace these: they
 * are registered only where no handler is set, and a later `routes.set` overrides them.
 */
import type { Routes } from '../http.js';
import { apiHandler, type ApiDeps } from './common.js';

/** Adds the two routes (and their CORS preflights) where `routes` has none yet. */
export function registerRulesFallback(routes: Routes, deps: ApiDeps): void {
  const answers: [string, unknown][] = [
    ['/api/v1/rules', { groups: [] }],
    ['/api/v1/alerts', { alerts: [] }],
  ];
  for (const [path, data] of answers) {
    if (!routes.has(`GET ${path}`)) routes.set(`GET ${path}`, apiHandler(deps, async () => ({ data })));
    if (!routes.has(`OPTIONS ${path}`)) routes.set(`OPTIONS ${path}`, apiHandler(deps, async () => ({ data: null })));
  }
}
