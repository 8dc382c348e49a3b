/** The default LLM rule pack: versioned, typed rule data and its Prometheus rule-file form. */
export { DEFAULT_PACK_OPTIONS, DEFAULT_SLOS, RULE_PACK_VERSION, resolvePackOptions, type KvBand, type QualityFloors, type RulePackOptions } from './options.js';
export { RULE_PACK_FILE, rulePack, type RulePack } from './pack.js';
export { ruleFileYaml } from './yaml.js';

import { RULE_PACK_FILE, rulePack } from './pack.js';
import { ruleFileYaml } from './yaml.js';

/**
 * The generated rule file of the default pack: docs/rules/llm-pack.rules.yml and, beside the Grafana
 * dashboards, docs/dashboards/llm-pack.rules.yml and `GET /api/v1/rules/pack` hold this text.
 */
export function rulePackYaml(): string {
  const pack = rulePack();
  return ruleFileYaml(pack.groups, [
    `Infersight default LLM rule pack, version ${pack.version}.`,
    'Generated from src/rules/pack (typed data) by `npm run gen-rule-pack` (docs/rules/) and `npm run gen-dashboards`',
    '(docs/dashboards/, beside the Grafana dashboards); do not edit by hand.',
    `Runbooks: docs/runbooks.md. SLO series: docs/slo.md. File name: ${RULE_PACK_FILE}.`,
  ]);
}
