/**
 * `/api/v1/rules`, `/api/v1/alerts` and `/api/v1/alertmanagers` in Prometheus 2.42's shapes, over
 * whatever evaluates the rules (src/server/rules-wiring.ts). A server that evaluates none answers
 * as Prometheus does without rule files or Alertmanagers: no groups, no alerts, no Alertmanagers.
 */
import { alertsApiData, rulesApiData, type AlertmanagersData, type RulesSnapshot } from '../../rules/index.js';
import { apiHandler, type ApiDeps } from './common.js';
import { goQuote, invalidParam } from './params.js';

/** What the three routes read. */
export interface RulesSource {
  snapshot(): RulesSnapshot;
  alertmanagers(): AlertmanagersData;
}

const NONE: RulesSource = {
  snapshot: () => ({ groups: [] }),
  alertmanagers: () => ({ activeAlertmanagers: [], droppedAlertmanagers: [] }),
};

/** The handlers of the three routes. */
export function rulesHandlers(deps: ApiDeps) {
  const source = (): RulesSource => deps.rules?.() ?? NONE;
  return {
    rules: apiHandler(deps, async ({ form }) => {
      // Prometheus 2.42 (web/api/v1/api.go): `type` is case-insensitive, `alert` or `record`.
      const type = form.get('type').toLowerCase();
      if (type !== '' && type !== 'alert' && type !== 'record') throw invalidParam('type', `not supported value ${goQuote(type)}`);
      return { data: rulesApiData(source().snapshot(), type === '' ? undefined : type) };
    }),
    alerts: apiHandler(deps, async () => ({ data: alertsApiData(source().snapshot()) })),
    alertmanagers: apiHandler(deps, async () => ({ data: source().alertmanagers() })),
  };
}
