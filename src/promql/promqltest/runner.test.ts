import { describe, expect, it } from 'vitest';
import { Labels, isStaleNaN } from '../../model/index.js';
import type { Queryable } from '../../storage/index.js';
import type { QueryEngine, QueryResult } from '../engine/types.js';
import { QueryError } from '../errors.js';
import { parseExpr as realParseExpr, type Expr, type VectorSelector } from '../parser/index.js';
import type { Sample, Value } from '../value.js';
import { runScript, type EvalRecord, type RunnerDeps } from './runner.js';
import { parseScript } from './script.js';

/**
 * A toy engine over the real parser that knows plain selectors (`name{l="v"}`, `@`, 5m lookback,
 * stale markers), numbers, and `time()`. Selectors named `boom` fail, `crash` throw a TypeError, `warny` warn.
 * `bugs` switches on deliberate mistakes to see the runner catch them.
 */
function toyDeps(bugs: { ignoreAt?: boolean; rangeOffByOne?: boolean } = {}, log: string[] = []): RunnerDeps {
  const parseExpr = (input: string): Expr => realParseExpr(input, { enableExperimentalFunctions: true });
  const instant = (q: Queryable, e: Expr, tMs: number): { value: Value; warnings: string[] } => {
    if (e.type === 'NumberLiteral') return { value: { type: 'scalar', t: tMs, v: e.value }, warnings: [] };
    if (e.type === 'Call') return { value: { type: 'scalar', t: tMs, v: tMs / 1000 }, warnings: [] };
    const vs = e as VectorSelector;
    if (vs.name === 'boom') throw new QueryError('execution', 'boom happened');
    if (vs.name === 'crash') throw new TypeError('cannot read properties of undefined');
    const at = bugs.ignoreAt === true ? tMs : (vs.timestampMs ?? tMs);
    const out: Sample[] = [];
    const set = q.querier(at - 300_000 + 1, at).select(vs.matchers);
    while (set.next()) {
      const it = set.at().iterator();
      let last: number | undefined;
      while (it.next()) last = it.at().value;
      if (last !== undefined && !isStaleNaN(last)) out.push({ metric: set.at().labels, t: tMs, f: last, dropName: false });
    }
    return { value: { type: 'vector', v: out }, warnings: vs.name === 'warny' ? ['PromQL warning: careful'] : [] };
  };
  const result = (value: Value, warnings: string[]): QueryResult => ({ value, warnings, infos: [], stats: { totalQueryableSamples: 0, peakSamples: 0, evalTotalTimeSec: 0 } });
  const engine: QueryEngine = {
    async instantQuery(q, query, tMs) {
      log.push(`instant ${typeof query === 'string' ? 'text' : 'ast'} ${tMs}`);
      const r = instant(q, typeof query === 'string' ? parseExpr(query) : query, tMs);
      return result(r.value, r.warnings);
    },
    async rangeQuery(q, query, startMs, endMs, stepMs) {
      log.push(`range ${startMs}..${endMs}/${stepMs}`);
      const e = typeof query === 'string' ? parseExpr(query) : query;
      const series = new Map<string, { metric: Labels; t: number[]; f: number[] }>();
      let warnings: string[] = [];
      for (let t = startMs; t <= endMs; t += stepMs) {
        const r = instant(q, e, t);
        warnings = r.warnings;
        const samples: Sample[] = r.value.type === 'vector' ? r.value.v : r.value.type === 'scalar' ? [{ metric: Labels.EMPTY, t, f: r.value.v, dropName: false }] : [];
        for (const s of samples) {
          const entry = series.get(s.metric.key()) ?? { metric: s.metric, t: [], f: [] };
          entry.t.push(t);
          entry.f.push(s.f + (bugs.rangeOffByOne === true ? 1 : 0));
          series.set(s.metric.key(), entry);
        }
      }
      const v = [...series.values()].sort((a, b) => a.metric.compare(b.metric)).map((s) => ({ ...s, dropName: false }));
      return result({ type: 'matrix', v }, warnings);
    },
  };
  return { newEngine: () => engine, parseExpr };
}

async function run(script: string, deps = toyDeps(), skip?: (line: number) => string | null): Promise<EvalRecord[]> {
  return runScript(parseScript('t.test', script), deps, skip === undefined ? {} : { skip: (c) => skip(c.line) });
}

const status = (records: EvalRecord[]): string[] => records.map((r) => `${r.line}:${r.status}${r.lenientPass ? '(lenient)' : ''}`);

describe('runScript', () => {
  const load = 'load 1m\n  up{job="a"} 1+1x4 stale\n  up{job="b"} 10 _ 30\n';

  it('runs loads and evals, instant and range', async () => {
    const records = await run(`${load}\neval instant at 2m up\n  up{job="a"} 3\n  up{job="b"} 30\n\neval range from 0 to 2m step 1m up{job="b"}\n  up{job="b"} 10 10 30\n\neval instant at 6m up{job="a"}`);
    expect(records.map((r) => [r.file, r.line, r.expr, r.status, r.reason])).toEqual([
      ['t.test', 5, 'up', 'pass', ''],
      ['t.test', 9, 'up{job="b"}', 'pass', ''],
      ['t.test', 12, 'up{job="a"}', 'pass', ''],
    ]);
  });

  it('records failures with a reason', async () => {
    const [r] = await run(`${load}\neval instant at 2m up{job="a"}\n  up{job="a"} 4`);
    expect(r.status).toBe('fail');
    expect(r.reason).toContain('expected 4 for up{job="a"} but got 3');
  });

  it('runs the @ variants and the range-mode check for instant evals', async () => {
    const log: string[] = [];
    await run(`${load}\neval instant at 2m up{job="a"}\n  up{job="a"} 3`, toyDeps({}, log));
    expect(log).toEqual([
      'instant text 120000',
      'range 60000..180000/60000',
      ...[-1_200_000, 0, 24_000, 120_000, 1_200_000].flatMap((t) => [`instant ast ${t}`, `range ${t - 60_000}..${t + 60_000}/60000`]),
    ]);
  });

  it('catches an engine that ignores @', async () => {
    const [r] = await run(`${load}\neval instant at 2m up{job="a"}\n  up{job="a"} 3`, toyDeps({ ignoreAt: true }));
    expect(r.status).toBe('fail');
    expect(r.reason).toContain('(with @ 120) at -1200000ms');
  });

  it('catches a range query that disagrees with the instant query', async () => {
    const [r] = await run(`${load}\neval instant at 2m up{job="a"}\n  up{job="a"} 3`, toyDeps({ rangeOffByOne: true }));
    expect(r.reason).toContain('range mode: expected 3 for up{job="a"} but got 4');
  });

  it('skips the @ variants for @-unsafe functions', async () => {
    const log: string[] = [];
    await run('eval instant at 1m time()\n  60', toyDeps({}, log));
    expect(log).toEqual(['instant text 60000', 'range 0..120000/60000']);
  });

  it('checks expected failures, strictly and leniently', async () => {
    const records = await run(
      [
        'eval instant at 0 boom\n  expect fail',
        'eval instant at 0 boom\n  expect fail msg: boom happened',
        'eval instant at 0 boom\n  expect fail msg: something else',
        'eval instant at 0 up\n  expect fail',
        'eval instant at 0 boom',
        'eval range from 0 to 1m step 1m boom\n  expect fail regex: b..m',
        'eval instant at 0 crash\n  expect fail',
      ].join('\n\n'),
    );
    expect(status(records)).toEqual(['1:pass', '4:pass', '7:fail(lenient)', '10:fail', '13:fail', '15:pass', '18:fail']);
    expect(records[3].reason).toContain('expected error evaluating query "up" (line 10) but got none');
    expect(records[4].reason).toContain('boom happened');
    expect(records[6].reason).toContain('non-QueryError');
  });

  it('checks annotations', async () => {
    const records = await run(
      [
        'eval instant at 0 warny\n  expect warn msg: PromQL warning: careful',
        'eval instant at 0 warny\n  expect warn msg: PromQL warning: other',
        'eval instant at 0 warny\n  expect no_warn',
        'eval_warn instant at 0 up',
      ].join('\n\n'),
    );
    expect(status(records)).toEqual(['1:pass', '4:fail(lenient)', '7:fail', '10:fail']);
  });

  it('clears the storage', async () => {
    const records = await run(`${load}\nclear\n\neval instant at 2m up`);
    expect(status(records)).toEqual(['7:pass']);
  });

  it('skips evals with a reason, and fails evals that do not parse', async () => {
    const records = await run(`${load}\neval instant at 2m up\n\neval instant at 2m up!`, toyDeps(), (line) => (line === 5 ? 'not today' : null));
    expect(records.map((r) => [r.status, r.reason])).toEqual([
      ['skip', 'not today'],
      ['fail', expect.stringContaining('parse error: ')],
    ]);
  });

  it('stops an ordered eval before comparing the range-mode result', async () => {
    const records = await run(`${load}\neval instant at 2m up\n  expect ordered\n  up{job="a"} 3\n  up{job="b"} 30`, toyDeps({ rangeOffByOne: true }));
    expect(status(records)).toEqual(['5:pass']);
  });
});
