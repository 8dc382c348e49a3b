/**
 * The YAML form of user SLO files, read with the config module's YAML reader (errors name the line
 * and field as Prometheus' yaml.v2 does). Shape (docs/slo.md):
 *
 *     slos:
 *       - slo: ttft                # ttft | itl | e2e | availability
 *         objective: 0.99          # share of good events
 *         threshold: 2.5s          # latency only: a Prometheus duration, or threshold_seconds: 2.5
 *         endpoint: chat-prod      # optional: one endpoint (default: every endpoint, one SLI per endpoint and component)
 *         component: gpt-oss-20b   # optional: one component
 *         histogram: llm_time_to_first_token_seconds   # optional: another catalog histogram
 *         period: 30d              # optional, default 30d
 *
 * The server is meant to read `slo_files:` globs from the configuration file (beside `rule_files:`),
 * turn each file into rule groups with `sloRuleGroups` (file = the SLO file's path) and run them
 * with the rule files; a file that fails keeps the last good groups, as rule files do.
 */
import { ConfigError, parseYamlDocument, type YamlNode } from '../../config/index.js';
import { SLO_KINDS, sloSpecProblems, type SloKind, type SloSpec } from './spec.js';

const FIELDS = ['slo', 'objective', 'threshold', 'threshold_seconds', 'endpoint', 'component', 'histogram', 'period'];

/** A number field (YAML int or float, or a numeric string). */
function number(n: YamlNode): number {
  const text = n.string();
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v)) n.fail(`cannot unmarshal ${JSON.stringify(text)} into float64`);
  return v;
}

/** One entry of `slos:`. */
function parseOne(n: YamlNode): SloSpec {
  const f = n.struct('slo.SLO', FIELDS);
  const kindNode = f.slo ?? n.fail('slo: missing (one of ' + SLO_KINDS.join(', ') + ')');
  const kind = kindNode.string();
  if (!(SLO_KINDS as readonly string[]).includes(kind)) kindNode.fail(`unknown slo ${JSON.stringify(kind)} (one of ${SLO_KINDS.join(', ')})`);
  if (f.objective === undefined) n.fail('objective: missing');
  if (f.threshold !== undefined && f.threshold_seconds !== undefined) f.threshold_seconds.fail('give threshold or threshold_seconds, not both');
  const thresholdSeconds = f.threshold !== undefined ? f.threshold.duration() / 1000 : f.threshold_seconds !== undefined ? number(f.threshold_seconds) : undefined;
  return {
    slo: kind as SloKind,
    objective: number(f.objective),
    ...(thresholdSeconds === undefined ? {} : { thresholdSeconds }),
    ...(f.endpoint === undefined ? {} : { endpoint: f.endpoint.string() }),
    ...(f.component === undefined ? {} : { component: f.component.string() }),
    ...(f.histogram === undefined ? {} : { histogram: f.histogram.string() }),
    ...(f.period === undefined ? {} : { periodMs: f.period.duration() }),
  };
}

/**
 * Parses an SLO file. Throws a `ConfigError` prefixed with `file`: a YAML or type error with its
 * line, or the first problem `sloSpecProblems` finds, with the line of that objective.
 */
export function parseSloFile(text: string, file: string): SloSpec[] {
  try {
    const root = parseYamlDocument(text).struct('slo.File', ['slos']);
    const nodes = root.slos?.list() ?? [];
    const specs = nodes.map(parseOne);
    const problems = sloSpecProblems(specs);
    if (problems.length > 0) {
      const i = Number(/^slos\[(\d+)\]/.exec(problems[0])?.[1] ?? 0);
      throw new ConfigError(`line ${nodes[i]?.line ?? 0}: ${problems[0]}`);
    }
    return specs;
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(`${file}: ${e.message}`);
    throw e;
  }
}
