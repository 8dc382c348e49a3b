/**
 * Captures the `/api/v1/rules` and `/api/v1/alerts` goldens from Debian's Prometheus 2.42: starts
 * it with the remote write receiver on and the rule file web/src/api/testdata/golden-rules.yml
 * (a recording rule, a recording rule that fails, and alerting rules that fire, pend and stay
 * inactive), pushes the series the rules read, waits until every group has been evaluated and the
 * alerts are in their states, and rewrites web/src/api/testdata/prometheus-rules-api.json. Run
 * through `npm run update-goldens -- rules-api`; review the diff (timestamps and evaluation times
 * move with every capture, the rest should not).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RemoteWriteV1Series } from '../../src/wire/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { findPeer, freePort, startPeer, waitFor } from '../peers/peers.js';
import { pushRemoteWriteSeries } from './federate-data.js';

const TESTDATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src/api/testdata');

/** The rule file the golden was captured with. */
export const RULES_GOLDEN_RULE_FILE = path.join(TESTDATA, 'golden-rules.yml');

/** Where the golden lives. */
export const RULES_GOLDEN_FILE = path.join(TESTDATA, 'prometheus-rules-api.json');

/** The identity of one simulated replica (the labels the Insights hex grid matches alerts on). */
const replica = (endpoint: string, component: string, instance: string, az: string, r: string): Record<string, string> => ({
  job: 'vllm',
  endpoint,
  component,
  instance,
  replica: r,
  az,
  engine: 'vllm',
});

/** The series the rules read, one sample each at `tMs`. */
export function rulesGoldenDataset(tMs: number): RemoteWriteV1Series[] {
  const s = (name: string, labels: Record<string, string>, value: number): RemoteWriteV1Series => ({
    labels: Object.entries({ __name__: name, ...labels }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    samples: [{ tMs, value }],
  });
  const chat1 = replica('chat', 'chat-llama', 'i-0a1', 'us-east-1a', 'chat-llama-r1');
  const chat2 = replica('chat', 'chat-llama', 'i-0b2', 'us-east-1b', 'chat-llama-r2');
  const code1 = replica('code', 'code-qwen', 'i-0c3', 'us-east-1c', 'code-qwen-r1');
  const code2 = replica('code', 'code-qwen', 'i-0d4', 'us-east-1a', 'code-qwen-r2');
  return [
    s('llm_kv_cache_usage_ratio', chat1, 0.97),
    s('llm_kv_cache_usage_ratio', chat2, 0.45),
    s('llm_kv_cache_usage_ratio', code1, 0.2),
    s('llm_kv_cache_usage_ratio', code2, 0.99),
    s('gpu_memory_used_ratio', { job: 'dcgm', instance: 'i-0a1', gpu: '0', az: 'us-east-1a' }, 0.6),
    s('golden_dup_a', { job: 'golden' }, 1),
    s('golden_dup_b', { job: 'golden' }, 2),
  ];
}

/** The golden: where it came from, when, and Prometheus' answers (whole `{status, data}` bodies). */
export interface RulesApiGolden {
  readonly capturedFrom: string;
  /** Wall-clock time of the capture (what "ago" is measured from when the golden is shown). */
  readonly capturedAtMs: number;
  readonly rules: unknown;
  readonly rulesTypeAlert: unknown;
  readonly rulesTypeRecord: unknown;
  readonly alerts: unknown;
}

interface RuleLike {
  readonly name: string;
  readonly state?: string;
  readonly health: string;
  readonly lastEvaluation: string;
}

/** Whether every group was evaluated and the alerts reached the states the rule file is built for. */
function settled(body: unknown): boolean {
  const groups = (body as { data?: { groups?: { lastEvaluation: string; rules: RuleLike[] }[] } }).data?.groups ?? [];
  const rules = groups.flatMap((g) => g.rules);
  const state = (name: string): string | undefined => rules.find((r) => r.name === name)?.state;
  return (
    groups.length === 2 &&
    groups.every((g) => !g.lastEvaluation.startsWith('0001') && g.rules.every((r) => !r.lastEvaluation.startsWith('0001'))) &&
    state('KVCacheFull') === 'firing' &&
    state('KVCachePreScale') === 'pending' &&
    state('GPUMemoryHigh') === 'inactive' &&
    rules.find((r) => r.name === 'golden:duplicate')?.health === 'err'
  );
}

/** Captures and writes the golden; returns the number of files written (1). */
export async function updateRulesApiGolden(log: (line: string) => void): Promise<number> {
  const prometheus = findPeer('prometheus');
  if (prometheus === null) throw new Error('the rules-api golden needs prometheus on PATH (Debian package prometheus)');
  const version = spawnSync(prometheus, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
  log(`capturing from ${version}`);
  const t = tempDir('rules-api-golden');
  const config = path.join(t.dir, 'prometheus.yml');
  fs.copyFileSync(RULES_GOLDEN_RULE_FILE, path.join(t.dir, 'golden-rules.yml'));
  fs.writeFileSync(config, 'global:\n  scrape_interval: 1h\n  evaluation_interval: 1s\nrule_files:\n  - golden-rules.yml\n');
  const port = await freePort();
  const peer = startPeer(prometheus, [
    `--config.file=${config}`,
    `--storage.tsdb.path=${path.join(t.dir, 'tsdb')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--web.enable-remote-write-receiver',
    '--log.level=warn',
  ]);
  const base = `http://127.0.0.1:${port}`;
  const get = async (p: string): Promise<unknown> => (await fetch(base + p)).json();
  try {
    await waitFor(`Prometheus ready (${peer.output().slice(-300)})`, async () => ((await fetch(`${base}/-/ready`)).ok ? true : undefined));
    await pushRemoteWriteSeries(base, rulesGoldenDataset(Date.now()));
    const rules = await waitFor(`every rule evaluated (${peer.output().slice(-300)})`, async () => {
      const b = await get('/api/v1/rules');
      return settled(b) ? b : undefined;
    });
    const capturedAtMs = Date.now();
    // The file is reported as the configuration resolved it: a path inside the temp directory.
    const golden: RulesApiGolden = JSON.parse(
      JSON.stringify({
        capturedFrom: version,
        capturedAtMs,
        rules,
        rulesTypeAlert: await get('/api/v1/rules?type=alert'),
        rulesTypeRecord: await get('/api/v1/rules?type=record'),
        alerts: await get('/api/v1/alerts'),
      }).replaceAll(JSON.stringify(t.dir + path.sep).slice(1, -1), ''),
    ) as RulesApiGolden;
    fs.writeFileSync(RULES_GOLDEN_FILE, JSON.stringify(golden, null, 2) + '\n');
    log(`wrote ${path.relative(process.cwd(), RULES_GOLDEN_FILE)}`);
    return 1;
  } finally {
    await peer.stop();
    t.remove();
  }
}
