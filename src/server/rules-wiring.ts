/**
 * The rules engine's wiring: `rule_files`, `global.evaluation_interval`, `global.external_labels`,
 * `global.rule_query_offset` and `alerting:` from `--config.file`; the rule manager over the
 * server's `QueryClient` writing into the store; the notifier; reloading (SIGHUP and
 * `POST /-/reload` through web-security.ts, keeping the last good rules when a file is broken,
 * as Prometheus does); the history replay (Prometheus' rule backfill) for `demo --history`; and
 * the data of `/api/v1/rules`, `/api/v1/alerts` and `/api/v1/alertmanagers` (src/server/api/rules.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, parseYamlDocument, type YamlNode } from '../config/index.js';
import { Labels, systemTimers, type Clock, type DurationMs, type Logger, type Timers, type UnixMs } from '../model/index.js';
import { ParseError, exprToString, parseExpr, type ParserOptions } from '../promql/index.js';
import type { QueryClient } from '../query/index.js';
import {
  EMPTY_ALERTING_CONFIG,
  Notifier,
  RULE_DEFAULTS,
  RuleManager,
  runRulesOver,
  checkTemplate,
  createTemplateExpander,
  expandRuleFileGlobs,
  loadRuleFiles,
  nodeRuleFileFs,
  parseAlertingConfig,
  parseSloFile,
  sloRuleGroups,
  type AlertingConfig,
  type NotifierOptions,
  type NotifierStats,
  type RuleFileFs,
  type RuleFilePorts,
  type RuleGroupSpec,
  type RuleManagerOptions,
  type RulesSnapshot,
} from '../rules/index.js';
import type { Appendable } from '../storage/index.js';
import type { RulesSource } from './api/index.js';

/** The rules-related parts of a Prometheus configuration file. */
export interface RulesConfig {
  readonly ruleFiles: readonly string[];
  /** `slo_files:` (Infersight's): SLO files (docs/slo.md) whose objectives become rule groups. */
  readonly sloFiles: readonly string[];
  readonly evaluationIntervalMs: DurationMs;
  readonly ruleQueryOffsetMs: DurationMs;
  readonly externalLabels: Readonly<Record<string, string>>;
  readonly alerting: AlertingConfig;
  /** The directory `rule_files` patterns are relative to. */
  readonly dir: string;
}

/** What a file without rules configures. */
export const EMPTY_RULES_CONFIG: RulesConfig = {
  ruleFiles: [],
  sloFiles: [],
  evaluationIntervalMs: RULE_DEFAULTS.evaluationIntervalMs,
  ruleQueryOffsetMs: 0,
  externalLabels: {},
  alerting: EMPTY_ALERTING_CONFIG,
  dir: '.',
};

/**
 * Reads the rules-related sections of a configuration file's text (`src/ingest/scrape` reads the
 * same file for `scrape_configs` and checks `global` in full). Throws `ConfigError` with the line.
 */
export function parseRulesConfig(text: string, dir: string): RulesConfig {
  const root = parseYamlDocument(text);
  if (root.isNull()) return { ...EMPTY_RULES_CONFIG, dir };
  const top = new Map(root.entries());
  const global = top.get('global');
  const g = new Map(global === undefined || global.isNull() ? [] : global.entries());
  const externalLabels: Record<string, string> = {};
  for (const [name, v] of g.get('external_labels')?.entries() ?? []) externalLabels[name] = v.string();
  const ruleFiles = top.get('rule_files')?.stringList() ?? [];
  const sloFiles = top.get('slo_files')?.stringList() ?? [];
  for (const [i, f] of ruleFiles.entries()) if (f === '') (top.get('rule_files') as YamlNode).fail(`rule_files entry ${i + 1} is empty`);
  return {
    ruleFiles,
    sloFiles,
    evaluationIntervalMs: g.get('evaluation_interval')?.duration() || RULE_DEFAULTS.evaluationIntervalMs,
    ruleQueryOffsetMs: g.get('rule_query_offset')?.duration() ?? 0,
    externalLabels,
    alerting: parseAlertingConfig(top.get('alerting'), dir),
    dir,
  };
}

/**
 * The validators rule files are checked with, by the server and by `infersight check-rules`: the
 * PromQL parser with the engine's feature flags (all off: a stock server), returning Prometheus'
 * message, and Go's template parser (`src/rules/template`).
 */
export function ruleFilePorts(parserOptions: ParserOptions = {}): RuleFilePorts {
  return {
    parseExpr: (text) => {
      try {
        parseExpr(text, parserOptions);
        return undefined;
      } catch (e) {
        if (e instanceof ParseError) return e.message;
        throw e;
      }
    },
    checkTemplate,
  };
}

/** The rule groups of `slo_files:` (each file's objectives, `sloRuleGroups`); throws `ConfigError` naming the file and line. */
async function loadSloFiles(globs: readonly string[], dir: string, fs: RuleFileFs): Promise<RuleGroupSpec[]> {
  const { files, failures } = await expandRuleFileGlobs(globs, dir, fs);
  if (failures.length > 0) throw new ConfigError(failures.map((f) => `${f.file}: ${f.errors.map((e) => e.message).join('; ')}`).join('\n'));
  const groups: RuleGroupSpec[] = [];
  for (const file of files) {
    const text = new TextDecoder().decode(await fs.readFile(file));
    try {
      groups.push(...sloRuleGroups(parseSloFile(text, file), { file }));
    } catch (e) {
      throw new ConfigError(`${file}: ${(e as Error).message}`);
    }
  }
  return groups;
}

/**
 * `group` with the configuration's `evaluation_interval` and `rule_query_offset` filled in where
 * it sets none. The rule manager keeps the defaults it was built with, so without this a reload
 * that changes them would leave every group on the old ones; Prometheus applies them (a group
 * whose interval changes is replaced, its state carried over).
 */
function withGlobalDefaults(group: RuleGroupSpec, c: RulesConfig): RuleGroupSpec {
  return {
    ...group,
    intervalMs: group.intervalMs !== undefined && group.intervalMs > 0 ? group.intervalMs : c.evaluationIntervalMs,
    queryOffsetMs: group.queryOffsetMs ?? c.ruleQueryOffsetMs,
  };
}

/** Options of `wireRules`. */
export interface RulesWiringOptions {
  /** The Prometheus-syntax configuration file; without one no rule runs. */
  readonly configFile?: string;
  /** `--web.external-url`: generator URLs and `$externalURL`; default `http://<listen address>`. */
  readonly externalURL?: () => string;
  readonly parserOptions?: ParserOptions;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly timers?: Timers;
  /** Test seams of the notifier (post, timers, file_sd). */
  readonly notifier?: Partial<NotifierOptions>;
  readonly ruleFileFs?: RuleFileFs;
}

/** The rules part of a running server. */
export interface RulesWiring {
  /** Starts evaluating into `appendable`, reading through `client`. */
  start(appendable: Appendable, client: QueryClient): Promise<void>;
  /** Re-reads the configuration and the rule files; rejects (keeping the last good rules) when one is invalid. */
  reload(): Promise<void>;
  /**
   * Evaluates the loaded groups over `[fromMs, toMs]` in virtual time, as if they had run live
   * (recorded series, `ALERTS`, `ALERTS_FOR_STATE`); sends nothing. Resolves with the evaluations run.
   */
  replay(appendable: Appendable, client: QueryClient, fromMs: UnixMs, toMs: UnixMs): Promise<number>;
  /** What the rules API routes show. */
  source(): RulesSource;
  /** The notifier's counters, for `/metrics`. */
  notifierStats(): NotifierStats;
  close(): Promise<void>;
}

/** Loads the configuration and the rule files (an invalid one stops the start, as in Prometheus). */
export async function wireRules(o: RulesWiringOptions): Promise<RulesWiring> {
  const ports = { ...ruleFilePorts(o.parserOptions), fs: o.ruleFileFs ?? nodeRuleFileFs };
  const load = async (): Promise<{ config: RulesConfig; groups: RuleGroupSpec[] }> => {
    if (o.configFile === undefined) return { config: EMPTY_RULES_CONFIG, groups: [] };
    const text = await fs.readFile(o.configFile, 'utf8');
    const config = parseRulesConfig(text, path.dirname(path.resolve(o.configFile)));
    const loaded = await loadRuleFiles(config.ruleFiles, config.dir, ports);
    if (loaded.failures.length > 0) throw new ConfigError(loaded.messages.join('\n'));
    const groups = [...loaded.groups, ...(await loadSloFiles(config.sloFiles, config.dir, ports.fs))];
    return { config, groups: groups.map((g) => withGlobalDefaults(g, config)) };
  };
  let current = await load();
  let manager: RuleManager | undefined;
  // Built at `start`, once the listener (and so the external URL) is known.
  let notifier: Notifier | undefined;
  const EMPTY_STATS: NotifierStats = { queueCapacity: 0, alertmanagersDiscovered: 0, relabelDropped: 0, destinations: [] };

  const snapshot = (): RulesSnapshot => manager?.snapshot() ?? { groups: [] };
  const managerOptions = (appendable: Appendable, client: QueryClient): RuleManagerOptions => {
    const c = current.config;
    return {
      query: client,
      appendable,
      clock: o.clock,
      timers: o.timers ?? systemTimers,
      logger: o.logger,
      expander: createTemplateExpander({ queryClient: client, externalURL: o.externalURL?.() ?? '' }),
      notify: notifier,
      formatExpr: (e) => exprToString(parseExpr(e, o.parserOptions)),
      evaluationIntervalMs: c.evaluationIntervalMs,
      ruleQueryOffsetMs: c.ruleQueryOffsetMs,
      externalLabels: c.externalLabels,
      externalURL: o.externalURL?.(),
    };
  };

  return {
    start: async (appendable, client) => {
      notifier = new Notifier({ ...o.notifier, logger: o.logger, clock: o.clock, timers: o.timers ?? systemTimers, externalURL: o.externalURL?.() });
      await notifier.applyConfig(current.config.alerting, Labels.from(current.config.externalLabels));
      manager = new RuleManager(managerOptions(appendable, client));
      await manager.update(current.groups);
      manager.start();
    },
    replay: async (appendable, client, fromMs, toMs) => {
      if (current.groups.length === 0) return 0;
      // No notifications for the past: only the live manager tells Alertmanager.
      const r = await runRulesOver(current.groups, fromMs, toMs, { ...managerOptions(appendable, client), notify: undefined });
      return r.evaluations;
    },
    source: () => ({ snapshot, alertmanagers: () => notifier?.alertmanagers() ?? { activeAlertmanagers: [], droppedAlertmanagers: [] } }),
    notifierStats: () => notifier?.stats() ?? EMPTY_STATS,
    reload: async () => {
      const next = await load();
      current = next;
      await notifier?.applyConfig(next.config.alerting, Labels.from(next.config.externalLabels));
      manager?.setExternal(next.config.externalLabels, o.externalURL?.() ?? '');
      await manager?.update(next.groups);
      o.logger.info('completed loading of rules', { groups: String(next.groups.length) });
    },
    close: async () => {
      await manager?.stop();
      notifier?.stop();
    },
  };
}
