/**
 * The `cost:` section of `--config.file` (Infersight's, beside Prometheus' `rule_files`): where the
 * price and benchmark catalogs are, the evaluator's tick and the idle-GPU threshold. Read from the
 * same file as the scrape configuration and the rules, which lets the section pass
 * (src/ingest/scrape/config.ts, `RULES_SECTIONS`), and re-read with them on SIGHUP and `/-/reload`.
 */
import path from 'node:path';
import { ConfigError, parseYamlDocument, type YamlNode } from '../config/index.js';
import type { DurationMs } from '../model/index.js';

/** What the `cost:` section configures; absent fields mean the cost module's defaults. */
export interface CostConfig {
  /** `price_catalog_file`: an override of the default price catalog, resolved against the configuration file's directory. */
  readonly priceCatalogFile?: string;
  /** `benchmark_file`: an override of the default benchmark catalog, resolved likewise. */
  readonly benchmarkFile?: string;
  /** `evaluation_interval`: the evaluator's tick. */
  readonly evaluationIntervalMs?: DurationMs;
  /** `idle_utilization_below`: a held GPU whose utilization stays below this ratio (0–1) for `idle_window` is idle. */
  readonly idleUtilizationBelow?: number;
  /** `idle_window`: how long a GPU must stay below the threshold to count as idle. */
  readonly idleWindowMs?: DurationMs;
}

/** The fields of the section, in the order the docs list them. */
const COST_FIELDS = ['price_catalog_file', 'benchmark_file', 'evaluation_interval', 'idle_utilization_below', 'idle_window'] as const;

/** A ratio field in [0, 1]; YamlNode has no float accessor, so the scalar is read here. */
function ratio(n: YamlNode): number {
  const v = (n.node as { value?: unknown } | null)?.value;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) n.fail(`want a ratio between 0 and 1, got ${JSON.stringify(v ?? null)}`);
  return v;
}

/** A file path field: a non-empty string, resolved against `dir`. */
function file(n: YamlNode, dir: string): string {
  const s = n.string();
  if (s === '') n.fail('is empty');
  return path.resolve(dir, s);
}

/** A positive duration field (0 would tick without end). */
function positive(n: YamlNode): DurationMs {
  const d = n.duration();
  if (d <= 0) n.fail('must be greater than 0');
  return d;
}

/**
 * Reads the `cost:` section of a configuration file's text (`dir` is the file's directory; other
 * sections are the scrape configuration's and the rules' business). An unknown field, a wrong type
 * or an empty path throws `ConfigError` naming the line, as every section of the file does.
 */
export function parseCostConfig(text: string, dir: string): CostConfig {
  const root = parseYamlDocument(text);
  if (root.isNull()) return {};
  const section = new Map(root.entries()).get('cost');
  if (section === undefined || section.isNull()) return {};
  const f = section.struct('cost.Config', COST_FIELDS);
  try {
    return fields(f, dir);
  } catch (e) {
    // Children of a top-level map entry are named `.cost.x` by the reader; the file says `cost.x`.
    if (e instanceof ConfigError) throw new ConfigError(e.message.replace(/^(line \d+: )\.cost\./, '$1cost.'));
    throw e;
  }
}

function fields(f: Partial<Record<string, YamlNode>>, dir: string): CostConfig {
  return {
    ...(f.price_catalog_file === undefined ? {} : { priceCatalogFile: file(f.price_catalog_file, dir) }),
    ...(f.benchmark_file === undefined ? {} : { benchmarkFile: file(f.benchmark_file, dir) }),
    ...(f.evaluation_interval === undefined ? {} : { evaluationIntervalMs: positive(f.evaluation_interval) }),
    ...(f.idle_utilization_below === undefined ? {} : { idleUtilizationBelow: ratio(f.idle_utilization_below) }),
    ...(f.idle_window === undefined ? {} : { idleWindowMs: positive(f.idle_window) }),
  };
}
