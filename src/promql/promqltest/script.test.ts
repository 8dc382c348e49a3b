import { describe, expect, it } from 'vitest';
import { isStaleNaN } from '../../model/index.js';
import { withSharedData } from '../../model/testing/shared-data.js';
import { ScriptError, parseScript, type Command, type EvalCommand, type LoadCommand } from './script.js';
import { isFail, isOrdered } from './script-types.js';
import { loadUpstreamSuite } from './upstream.js';

const evalOf = (text: string): EvalCommand => {
  const cmds = parseScript('t.test', text).commands.filter((c): c is EvalCommand => c.kind === 'eval');
  expect(cmds).toHaveLength(1);
  return cmds[0];
};

describe('parseScript', () => {
  it('reads load, clear and eval commands with their lines', () => {
    const s = parseScript(
      't.test',
      [
        '# comment',
        'load 5m',
        '  up{job="a"} 0+1x2',
        '  # a comment ends the block',
        'clear',
        '',
        'load_with_nhcb 1m30s',
        '  m_bucket{le="1"} 1',
        '',
        'eval instant at 10m up',
        '  up{job="a"} 2',
        '',
        'eval range from 0 to 10m step 5m up',
        '  up{job="a"} 0 1 2',
      ].join('\n'),
    );
    const summary = s.commands.map((c: Command) => `${c.kind}@${c.line}`);
    expect(summary).toEqual(['load@2', 'clear@5', 'load@7', 'eval@10', 'eval@13']);
    const load = s.commands[0] as LoadCommand;
    expect(load.intervalMs).toBe(300_000);
    expect(load.series[0].line).toBe(3);
    expect((s.commands[2] as LoadCommand).withNhcb).toBe(true);
    expect((s.commands[2] as LoadCommand).intervalMs).toBe(90_000);
    const inst = s.commands[3] as EvalCommand;
    expect({ isRange: inst.isRange, evalMs: inst.evalMs, expr: inst.expr }).toEqual({ isRange: false, evalMs: 600_000, expr: 'up' });
    const rng = s.commands[4] as EvalCommand;
    expect({ isRange: rng.isRange, startMs: rng.startMs, endMs: rng.endMs, stepMs: rng.stepMs }).toEqual({ isRange: true, startMs: 0, endMs: 600_000, stepMs: 300_000 });
  });

  it('keeps the later line of a series written twice', () => {
    const load = parseScript('t.test', 'load 1m\n  up 1\n  up 2 3').commands[0] as LoadCommand;
    expect(load.series).toHaveLength(1);
    expect(load.series[0].values).toHaveLength(2);
  });

  it('pairs @st lines with their series', () => {
    const load = parseScript('t.test', 'load 1m\n  up@st _ -1s\n  up 1 2\n  @st 5s\n  other 1 2 3').commands[0] as LoadCommand;
    expect(load.series.map((s) => s.startOffsetsMs)).toEqual([[null, -1000], [5000, 5000, 5000]]);
  });

  it('reads expect lines', () => {
    const cmd = evalOf(
      [
        'eval instant at 1m foo',
        '  expect warn msg: PromQL warning: something',
        '  expect warn regex: some.*thing',
        '  expect info',
        '  expect no_warn',
      ]
        .slice(0, 4)
        .join('\n'),
    );
    expect(cmd.expects.warn.map((e) => [e.message, e.regex?.test('a something b')])).toEqual([
      ['PromQL warning: something', undefined],
      [null, true],
    ]);
    expect(cmd.expects.info).toHaveLength(1);
    expect(cmd.expects.info[0].regex?.test('anything')).toBe(true);
  });

  it('reads expected results: series, scalar, string, range vector, order', () => {
    const c1 = evalOf('eval instant at 1m foo\n  expect ordered\n  a 1\n  b stale\n  a 3');
    expect(isOrdered(c1)).toBe(true);
    expect([...c1.expectedSeries.values()].map((e) => [e.metric.toString(), e.pos])).toEqual([['a', 3], ['b', 2]]);
    const b = c1.expectedSeries.get('__name__\u0000b');
    expect(b?.values[0].kind === 'float' && isStaleNaN(b.values[0].value)).toBe(true);
    const c2 = evalOf('eval instant at 1m 1+1\n  0x10');
    expect(c2.expectedScalar).toEqual({ kind: 'float', value: 16 });
    const c3 = evalOf('eval instant at 1m "a"\n  expect string "a\\tb"');
    expect([c3.expectedString, c3.excludeFromRangeQuery]).toEqual(['a\tb', true]);
    const c4 = evalOf('eval instant at 1m foo[1m]\n  expect range vector from 10s to 1m step 10s\n  foo 1 2 3 4 5 6');
    expect([c4.startMs, c4.endMs, c4.stepMs, c4.evalMs, c4.excludeFromRangeQuery]).toEqual([10_000, 60_000, 10_000, 60_000, true]);
  });

  it('accepts the deprecated forms', () => {
    const f = evalOf('eval_fail instant at 0 foo\n  expected_fail_message bad thing happened');
    expect([isFail(f), f.expectedFailMessage]).toEqual([true, 'bad thing happened']);
    const r = evalOf('eval_fail range from 0 to 1m step 1m foo\n  expected_fail_regexp bad (thing|stuff)');
    expect(r.expectedFailRegexp?.test('a bad stuff')).toBe(true);
    expect(evalOf('eval_ordered instant at 0 foo').legacyOrdered).toBe(true);
    expect(evalOf('eval_warn instant at 0 foo').legacyWarn).toBe(true);
    expect(evalOf('eval_info range from 0 to 1m step 1m foo').legacyInfo).toBe(true);
  });

  it('ends a block early after a scalar or an expected_fail_* line, as test.go', () => {
    expect(() => parseScript('t.test', 'eval instant at 0 1\n  1\n  2')).toThrow('t.test:3: invalid command "2"');
    expect(() => parseScript('t.test', 'eval_fail instant at 0 x\n  expected_fail_message m\n  y 1')).toThrow('t.test:3: invalid command "y 1"');
  });

  it.each([
    ['bogus', 't.test:1: invalid command "bogus"'],
    ['load', 't.test:1: invalid load command'],
    ['load 5x', 't.test:1: invalid step definition "5x"'],
    ['load 1m\n  up 1\n  up{ 1', 't.test:3: '],
    ['load 1m\n  up@st 1s', 't.test:2: @st line has no following sample line'],
    ['load 1m\n  up@st 1s\n  down 1', 't.test:2: @st metric does not match'],
    ['load 1m\n  up@st 1s 2s\n  up 1', 't.test:2: @st line has 2 values but sample line has 1'],
    ['eval instant  foo', 't.test:1: error in eval foo (line 1): invalid timestamp definition ""'],
    ['EVAL instant at 0 foo', 't.test:1: invalid evaluation command'],
    ['eval instant at 1x foo', 't.test:1: error in eval foo (line 1): invalid timestamp definition "1x"'],
    ['eval range from 1m to 0 step 1m foo', 'end timestamp (0) is before start timestamp (1m)'],
    ['eval nothing', 't.test:1: invalid evaluation command'],
    ['eval instant at 0 foo\n  foo 1 2', "expecting multiple values in instant evaluation not allowed"],
    ['eval instant at 0 foo\n  expect bogus', 'invalid expect statement'],
    ['eval instant at 0 foo\n  expect warn\n  expect no_warn', 'warn and no_warn cannot be used together'],
    ['eval instant at 0 foo\n  expect info\n  expect no_info', 'info and no_info cannot be used together'],
    ['eval instant at 0 foo\n  expect fail\n  expect fail', 'multiple expect fail lines are not allowed'],
    ['eval instant at 0 foo\n  expect fail regex: (', 'invalid regex ( for fail'],
    ['eval instant at 0 foo\n  expect string', 'a quoted string literal is required'],
    ['eval instant at 0 foo\n  expect string "a', 'check that the string is correctly quoted'],
    ['eval instant at 0 foo\n  expect range vector from 0 to 1m', 'invalid range vector definition'],
  ])('reports %j', (text, message) => {
    let err: unknown;
    try {
      parseScript('t.test', text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScriptError);
    expect((err as Error).message).toContain(message);
  });
});

withSharedData('the upstream files', 'conformance/promqltest', (upstreamDir) => {
  it('parse, and their evals are exactly the rows of index.tsv', () => {
    const suite = loadUpstreamSuite(upstreamDir);
    const seen: string[] = [];
    for (const f of suite.files) {
      for (const c of parseScript(f.name, f.text).commands) {
        if (c.kind !== 'eval') continue;
        const row = suite.index.get(`${f.name}:${c.line}`);
        expect(row?.expr, `${f.name}:${c.line}`).toBe(c.expr);
        expect(row?.kind).toBe(c.isRange ? 'range' : 'instant');
        seen.push(`${f.name}:${c.line}`);
      }
    }
    expect(seen.sort()).toEqual([...suite.index.keys()].sort());
  });
});
