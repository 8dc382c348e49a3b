import { describe, expect, it } from 'vitest';
import { Labels, isStaleNaN } from '../../model/index.js';
import { metricEnd } from './metric-notation.js';
import { expandSeriesValues, parseSeriesLine, type SequenceValue } from './series-notation.js';
import { isStartTimestampLine, parseStartTimestampLine } from './start-timestamps.js';

/** Renders expanded values compactly: numbers, `_`, `stale`, `H` for histograms. */
function render(values: readonly SequenceValue[]): string {
  return values.map((v) => (v.kind === 'omitted' ? '_' : v.kind === 'histogram' ? 'H' : isStaleNaN(v.value) ? 'stale' : String(v.value))).join(' ');
}

describe('expandSeriesValues', () => {
  it.each([
    ['1 2 3', '1 2 3'],
    ['0+10x3', '0 10 20 30'],
    ['10-2x2', '10 8 6'],
    ['-1+1x2', '-1 0 1'],
    ['1x3', '1 1 1 1'],
    ['0x10', '0 0 0 0 0 0 0 0 0 0 0'],
    ['_', '_'],
    ['_x3', '_ _ _'],
    ['_x0', ''],
    ['1 _ 3 stale 4', '1 _ 3 stale 4'],
    ['Inf -Inf NaN inf', 'Infinity -Infinity NaN Infinity'],
    ['1e3 1.5e-3x1', '1000 0.0015 0.0015'],
    ['Inf+1x1', 'Infinity Infinity'],
    ['010', '8'],
    ['  1\t2  ', '1 2'],
    ['', ''],
    ['0.1+0.1x2', '0.1 0.2 0.30000000000000004'],
    ['{{schema:0 sum:5 count:4 buckets:[1 2 1]}}', 'H'],
    ['{{}}x2 1', 'H H H 1'],
    ['{{sum:1 count:1}}+{{sum:2 count:2}}x2', 'H H H'],
    ['{{count:1 sum:1}}-{{count:1 sum:1}}x1 _', 'H H _'],
  ])('%j -> %j', (text, want) => {
    expect(render(expandSeriesValues(text))).toBe(want);
  });

  it.each([['1+1'], ['abc'], ['stalex3'], ['Infx3'], ['1+Infx3'], ['0x'], ['1 2,3'], ['{{bogus:1}}'], ['{{sum:1'], ['{{sum:1}}x'], ['{{sum:1}}y']])(
    'rejects %j',
    (text) => {
      expect(() => expandSeriesValues(text)).toThrow();
    },
  );

  it('keeps the stale marker bit-exact', () => {
    const [v] = expandSeriesValues('stale');
    expect(v.kind === 'float' && isStaleNaN(v.value)).toBe(true);
  });

  it('parses histogram keys and flags sequences', () => {
    const [a, b] = expandSeriesValues(
      '{{schema:-53 sum:1 count:2 z_bucket:1 z_bucket_w:0.001 buckets:[1 2] offset:1 n_buckets:[3] n_offset:-1 custom_values:[5 10] counter_reset_hint:gauge}}+{{sum:1}}x1',
    );
    expect(a).toMatchObject({
      kind: 'histogram',
      step: null,
      histogram: { schema: -53, sum: 1, count: 2, zeroCount: 1, zeroThreshold: 0.001, buckets: [1, 2], offset: 1, negativeBuckets: [3], negativeOffset: -1, customValues: [5, 10], counterResetHint: 'gauge', counterResetHintSet: true },
    });
    expect(b).toMatchObject({ kind: 'histogram', step: { sign: 1, times: 1, delta: { sum: 1, counterResetHintSet: false } } });
  });
});

describe('series lines', () => {
  it.each([
    ['up 1', 'up', '1'],
    ['up{job="a", instance="0"} 1 2', 'up{instance="0", job="a"}', '1 2'],
    ['up {job="a"} 1', 'up{job="a"}', '1'],
    ['{__name__="up", job="a"} 1', 'up{job="a"}', '1'],
    ['{} 1', '{}', '1'],
    ['{"utf8.metric", "a.b"="c"} 1', 'utf8.metric{a.b="c"}', '1'],
    ['m{job="{count:20, sum:10}", g="c d"} 2', 'm{g="c d", job="{count:20, sum:10}"}', '2'],
    ["m{a='x\"y', b=`raw\\n`,} 2", 'm{a="x\\"y", b="raw\\\\n"}', '2'],
    ['m{a="\\u00fc"}', 'm{a="ü"}', ''],
    ['m {{sum:1}}', 'm', 'H'],
    ['m{a=""} 1', 'm', '1'],
  ])('%s', (line, metric, values) => {
    const s = parseSeriesLine(line);
    expect(s.metric.toString()).toBe(metric);
    expect(render(s.values)).toBe(values);
  });

  it.each([['1 2'], ['up{a=~"x"} 1'], ['up{a="x" 1'], ['up{a=x} 1'], ['up} 1'], ['up{a="x"}1']])('rejects %j', (line) => {
    expect(() => parseSeriesLine(line)).toThrow();
  });

  it('uses the given metric parser', () => {
    const s = parseSeriesLine('anything{x="y"} 1', () => Labels.from({ __name__: 'given' }));
    expect(s.metric.toString()).toBe('given');
  });

  it('finds the end of the metric part', () => {
    expect(metricEnd('up{a="}"} 1')).toBe(9);
    expect(metricEnd('up {{sum:1}}')).toBe(2);
    expect(metricEnd('{{sum:1}}')).toBe(0);
  });
});

describe('start-timestamp lines', () => {
  it.each([
    ['m{type="a"}@st _ _ -30s-1mx2', 'm{type="a"}', [null, null, -30_000, -90_000, -150_000]],
    ['m@st 0-1mx1 _x2 1ms', 'm', [0, -60_000, null, null, 1]],
    ['m@st -1mx2 *', 'm', [-60_000, -60_000, -60_000, -60_000]],
    ['m@st 5s *x1 -0msx1', 'm', [5000, 5000, 5000, -0, -0]],
    ['@st _ 1s', null, [null, 1000]],
  ])('%s', (line, metric, offsets) => {
    expect(isStartTimestampLine(line)).toBe(true);
    const st = parseStartTimestampLine(line);
    expect(st.metric?.toString() ?? null).toBe(metric);
    expect(st.offsetsMs).toEqual(offsets);
  });

  it('tells start-timestamp lines from series lines', () => {
    expect(isStartTimestampLine('m{a="b"} 1 2')).toBe(false);
    expect(isStartTimestampLine('m@st')).toBe(false);
  });

  it.each([['m@st 1m+1m'], ['m@st _x0'], ['m@st 1q'], ['m@st x']])('rejects %j', (line) => {
    expect(() => parseStartTimestampLine(line)).toThrow();
  });
});
