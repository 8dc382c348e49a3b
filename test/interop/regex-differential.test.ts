/**
 * Regular expressions against Debian's Prometheus 2.42 (Go's RE2): the same tricky label values
 * in both stores, then `=~`, `!~` and `label_replace` with a table of tricky patterns. Every
 * answer must agree: which series match, and what the submatches expand to.
 *
 * What 2.42 and 3.x (our reference) spell differently is kept out of the table, not listed as a
 * difference: 2.42 anchors matchers as `^(?:p)$` where 3.x writes `^(?s:p)$`, so no value holds a
 * newline; 2.42's Go rejects `(?<name>…)`, so named groups use `(?P<name>…)`.
 */
import path from 'node:path';
import { describe, expect } from 'vitest';
import { useCleanups } from '../../src/model/testing/cleanups.js';
import { createBlocks, startPrometheus, OpenMetricsFile } from '../../bench/promql/prometheus-peer.js';
import { Labels } from '../../src/model/index.js';
import { Engine, EngineQueryClient } from '../../src/promql/index.js';
import { HttpQueryClient, type QueryClient } from '../../src/query/index.js';
import { Db } from '../../src/tsdb/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { findPeer, itWithPeer } from '../peers/peers.js';

const cleanups = useCleanups();

/** Label values: instance names, case, dots and colons, brackets, Unicode, braces, backslashes. */
const VALUES = [
  'a',
  'aa',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  'ab',
  'abc',
  'ABC',
  'Abc',
  'b',
  'ip-10-0-12-34.us-east-1.compute.internal:9400',
  'gpu-node-7:9400',
  'vllm',
  'VLLM',
  'vllm:num_requests_running',
  'sglang',
  'chat-prod',
  'llama-prod',
  'a.b',
  'a+b',
  'a{2}',
  'a{,2}',
  '[x]',
  '\\d',
  'x\\y',
  'héllo',
  'Straße',
  '日本語',
  '😀',
  ' space ',
  '#',
  'tab\there',
  '0',
  '123',
  '-1.5e3',
];

/** Patterns: RE2 syntax JavaScript lacks, leftmost-first alternation, classes, case folding, repeats. */
const PATTERNS = [
  'a',
  'a+',
  '(a+)+b',
  '(a|aa)+',
  '(a|ab)(c|bcd)?',
  'a.c',
  '.*',
  '.+',
  '.*prod',
  'vllm.*',
  '.*gpu.*',
  'vllm|sglang',
  '(?i)vllm',
  '(?i:a)bc',
  '[[:alpha:]]+',
  '[[:digit:]]+',
  '[^a-z]+',
  '\\pL+',
  '\\p{Han}+',
  '\\PL+',
  '\\d+',
  '\\D+',
  '\\w+',
  '\\s.*',
  '\\Qa.b\\E',
  '\\Q[x]\\E',
  'a{2}',
  'a{,2}',
  'a{2,}',
  'x\\\\y',
  '\\\\d',
  '(?P<host>[^:]+):(?P<port>\\d+)',
  '([a-z]+)-(\\d+)-.*',
  '(.|\\\\.|[a-z0-9.:-])*#',
  '\\x{1F600}',
  '[\\x{4E00}-\\x{9FFF}]+',
  '(?U)a+',
  'a*?',
  '^a$',
  '\\Aa\\z',
  '-?[0-9.]+(e[0-9]+)?',
  '',
];

const T_MS = 1_700_000_000_000;

async function answer(c: QueryClient, q: string): Promise<string[] | string> {
  try {
    const r = await c.instant(q, T_MS);
    if (r.data.resultType !== 'vector') return `resultType ${r.data.resultType}`;
    return r.data.result.map((s) => `${s.metric.i}=${s.metric.out ?? ''}`).sort();
  } catch (e) {
    return `error: ${(e as Error).name}`;
  }
}

describe('regular expressions: our RE2 against Prometheus 2.42', () => {
  itWithPeer(
    'every pattern selects and expands as Prometheus does',
    'prometheus',
    async (prometheus) => {
      const promtool = findPeer('promtool');
      if (promtool === null) throw new Error('promtool is not installed (Debian package prometheus); this test needs it');
      const t = tempDir('regex-diff');
      cleanups.push(t.remove);
      const series = VALUES.map((v, i) => Labels.from({ __name__: 're_probe', i: String(i), v }));

      const om = path.join(t.dir, 'data.om');
      const f = new OpenMetricsFile(om);
      for (const s of series) f.sample(OpenMetricsFile.head(s), 1, T_MS);
      f.close();
      const blocks = path.join(t.dir, 'prometheus');
      createBlocks(promtool, om, blocks);
      const peer = await startPrometheus(prometheus, blocks);
      cleanups.push(peer.stop);

      const db = await Db.open({ dir: path.join(t.dir, 'db'), fsync: { mode: 'never' } });
      cleanups.push(() => db.close());
      const app = db.appender();
      for (const s of series) app.append(0, s, T_MS, 1);
      await app.commit();

      const ours = new EngineQueryClient({ engine: new Engine(), queryable: db });
      const theirs = new HttpQueryClient({ url: peer.base });
      const differences: string[] = [];
      let compared = 0;
      let matchedRows = 0;
      for (const p of PATTERNS) {
        const quoted = JSON.stringify(p);
        for (const q of [`re_probe{v=~${quoted}}`, `re_probe{v!~${quoted}}`, `label_replace(re_probe, "out", "<$1|$2|\${host}|$0>", "v", ${quoted})`]) {
          const [a, b] = await Promise.all([answer(ours, q), answer(theirs, q)]);
          compared++;
          if (Array.isArray(a)) matchedRows += a.length;
          if (JSON.stringify(a) !== JSON.stringify(b)) differences.push(`${q}\n  ours:       ${JSON.stringify(a)}\n  prometheus: ${JSON.stringify(b)}`);
        }
      }
      expect(compared).toBe(PATTERNS.length * 3);
      // The comparison is not vacuous: most queries select series (`!~` and label_replace select many).
      expect(matchedRows).toBeGreaterThan(PATTERNS.length * VALUES.length);
      expect(differences, differences.join('\n')).toEqual([]);
    },
    180_000,
  );
});
