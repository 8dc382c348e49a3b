/**
 * Helpers of the whole-process rules tests (test/e2e/rules-serve.test.ts and
 * test/interop/rules-alertmanager-serve.test.ts): a temp directory with a `--config.file` and its
 * rule file, `infersight serve` over it, and typed reads of `/api/v1/rules` and `/api/v1/alerts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Cleanups } from '../../src/model/testing/cleanups.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { startServe, type RunningCli } from './cli.js';

/** A rule of `/api/v1/rules`, the fields these tests read. */
export interface ApiRule {
  readonly name: string;
  readonly type: 'alerting' | 'recording';
  readonly health: string;
  readonly lastError?: string;
  readonly lastEvaluation: string;
  readonly state?: string;
}

/** A group of `/api/v1/rules`. */
export interface ApiGroup {
  readonly name: string;
  readonly file: string;
  readonly interval: number;
  readonly lastEvaluation: string;
  readonly rules: readonly ApiRule[];
}

/** An alert of `/api/v1/alerts`. */
export interface ApiAlert {
  readonly labels: Record<string, string>;
  readonly state: string;
  readonly activeAt: string;
  readonly value: string;
}

/** A temp directory holding `prometheus.yml` (the `--config.file`) and `rules.yml`. */
export interface RulesDir {
  readonly dir: string;
  readonly configFile: string;
  readonly ruleFile: string;
  /** Rewrites the rule file. */
  writeRules(text: string): void;
  /** Rewrites the configuration file. */
  writeConfig(text: string): void;
}

/** The default configuration: every second, one rule file. */
export const CONFIG = ['global:', '  evaluation_interval: 1s', 'rule_files: [rules.yml]', ''].join('\n');

/** Creates the temp directory with `config` and `rules`; removed after the test. */
export function rulesDir(cleanups: Cleanups, rules: string, config = CONFIG): RulesDir {
  const t = tempDir('e2e-rules-serve');
  cleanups.push(t.remove);
  const configFile = path.join(t.dir, 'prometheus.yml');
  const ruleFile = path.join(t.dir, 'rules.yml');
  const d: RulesDir = {
    dir: t.dir,
    configFile,
    ruleFile,
    writeRules: (text) => fs.writeFileSync(ruleFile, text),
    writeConfig: (text) => fs.writeFileSync(configFile, text),
  };
  d.writeRules(rules);
  d.writeConfig(config);
  return d;
}

/** Starts `infersight serve` over `d` (its own data directory unless `data` is given), lifecycle routes on; stopped after the test. */
export async function serveRules(cleanups: Cleanups, d: RulesDir, data = path.join(d.dir, 'data'), extra: string[] = []): Promise<RunningCli> {
  const cli = await startServe(['--data', data, '--config.file', d.configFile, '--web.enable-lifecycle', ...extra]);
  cleanups.push(async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGTERM');
    await cli.exited;
  });
  return cli;
}

/** GETs `base + p` and returns the JSON envelope's `data`; throws unless it answers 200 `success`. */
export async function apiData<T>(base: string, p: string): Promise<T> {
  const res = await fetch(`${base}${p}`);
  const body = (await res.json()) as { status: string; data: T; error?: string };
  if (res.status !== 200 || body.status !== 'success') throw new Error(`${p} answered ${res.status}: ${JSON.stringify(body)}`);
  return body.data;
}

/** The groups of `/api/v1/rules` (`query`: e.g. `?type=alert`). */
export async function ruleGroups(base: string, query = ''): Promise<ApiGroup[]> {
  return (await apiData<{ groups: ApiGroup[] }>(base, `/api/v1/rules${query}`)).groups;
}

/** The alerts of `/api/v1/alerts`. */
export async function alerts(base: string): Promise<ApiAlert[]> {
  return (await apiData<{ alerts: ApiAlert[] }>(base, '/api/v1/alerts')).alerts;
}

/** Every rule of every group, as `group/rule`, with the rule. */
export async function rulesByName(base: string): Promise<Map<string, ApiRule>> {
  return new Map((await ruleGroups(base)).flatMap((g) => g.rules.map((r) => [`${g.name}/${r.name}`, r] as const)));
}

/** Never evaluated: Prometheus' zero time. */
export const NEVER = '0001-01-01T00:00:00Z';
