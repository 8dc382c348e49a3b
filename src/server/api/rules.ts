/**
 * `/api/v1/rules`, `/api/v1/alerts` and `/api/v1/alertmanagers` in Prometheus 2.42's shapes, over
 * whatever evaluates the rules (src/server/rules-wiring.ts). A server that evaluates none answers
 * as Prometheus does without rule files or Alertmanagers: no groups, no alerts, no Alertmanagers.
 *
 * `/api/v1/rules/pack` (Infersight's own) answers the default LLM rule pack as a Prometheus rule
 * file, no envelope, as an attachment: the file exported beside the Grafana dashboards
 * (docs/dashboards/), whatever rules this server evaluates.
 */
import { RULE_PACK_FILE, alertsApiData, rulePackYaml, rulesApiData, type AlertmanagersData, type RulesSnapshot } from '../../rules/index.js';
import type { Handler } from '../http.js';
import { apiHandler, type ApiDeps } from './common.js';
import { goQuote, invalidParam } from './params.js';
import { writeText } from './respond.js';

/** What the three routes read. */
export interface RulesSource {
  snapshot(): RulesSnapshot;
  alertmanagers(): AlertmanagersData;
}

const NONE: RulesSource = {
  snapshot: () => ({ groups: [] }),
  alertmanagers: () => ({ activeAlertmanagers: [], droppedAlertmanagers: [] }),
};

/**
 * The rule pack's route: the YAML itself (RFC 9512's `application/yaml`), downloaded under the name
 * it has in docs/, so mimirtool derives the same namespace from either copy.
 */
const pack: Handler = async (req, res) => {
  res.setHeader('Content-Disposition', `attachment; filename="${RULE_PACK_FILE}"`);
  await writeText(req, res, 200, rulePackYaml(), 'application/yaml');
};

/** The handlers of the four routes. */
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
    pack,
  };
}
