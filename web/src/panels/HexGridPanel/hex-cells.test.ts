import { describe, expect, it } from 'vitest';
import type { HexGridOptions } from '../../../../src/dashboards/types.js';
import type { InstantSample } from '../../../../src/query/index.js';
import { applyThresholdOverrides, HEALTH_GLYPH, HEALTH_NAME, HEALTH_STATES, instanceHealth, ruleLimits, thresholdState, type HealthRule, type HealthState } from './health.js';
import { buildHexCells, cellInstanceMap, healthCounts } from './hex-cells.js';

const s = (metric: Record<string, string>, v: string): InstantSample => ({ metric, value: [1, v] });
const OPTS: HexGridOptions = {
  cells: 'cells',
  views: { instance: 'instance', replica: 'replica', endpoint: 'endpoint' },
  groupBy: 'az',
  health: [],
  filterVariable: 'instance',
  joinOn: 'instance',
};
const RULES: HealthRule[] = [
  { refId: 'ttft', thresholds: [{ value: 0, state: 'ok' }, { value: 1, state: 'warning' }, { value: 2, state: 'critical' }] },
  { refId: 'kv', thresholds: [{ value: 0.5, state: 'warning' }, { value: 0.85, state: 'critical' }] },
];

describe('health', () => {
  it.each([
    [0.5, 'ok'],
    [1, 'warning'],
    [1.99, 'warning'],
    [2, 'critical'],
    [-1, 'ok'],
  ] as const)('TTFT %s is %s', (v, want) => {
    expect(thresholdState(v, RULES[0].thresholds)).toBe(want);
  });

  it('takes the worst rule and says why', () => {
    expect(instanceHealth({ ttft: 0.2, kv: 0.9 }, RULES)).toEqual({
      state: 'critical',
      reasons: [
        { refId: 'ttft', value: 0.2, state: 'ok' },
        { refId: 'kv', value: 0.9, state: 'critical' },
      ],
    });
    expect(instanceHealth({}, RULES).state).toBe('nodata');
    expect(instanceHealth({ ttft: Number.NaN, kv: 0.1 }, RULES).state).toBe('healthy');
  });

  const LIFECYCLE = { down: 'down', starting: 'starting', idle: 'idle' };
  it.each<[string, Record<string, number | undefined>, HealthState]>([
    ['a crashed engine beside a critical one', { down: 1, kv: 0.95 }, 'down'],
    ['a cold start beside a healthy engine', { starting: 1, ttft: 0.2 }, 'starting'],
    ['a cold start with nothing else to judge', { starting: 2 }, 'starting'],
    ['a cold start beside a warning', { starting: 1, ttft: 1.5 }, 'warning'],
    ['a cold start beside a critical engine', { starting: 1, kv: 0.9 }, 'critical'],
    ['a count of 0 is no state', { down: 0, starting: 0, ttft: 0.2 }, 'healthy'],
    ['an instance without engines', { idle: 1 }, 'idle'],
    ['nothing at all', { down: undefined }, 'nodata'],
  ])('lifecycle: %s', (_name, values, want) => {
    expect(instanceHealth(values, RULES, LIFECYCLE).state).toBe(want);
  });

  it('has a distinct name and glyph per state, worst first', () => {
    expect(HEALTH_STATES).toEqual(['down', 'critical', 'warning', 'starting', 'healthy', 'idle', 'nodata']);
    expect(new Set(HEALTH_STATES.map((h) => HEALTH_GLYPH[h])).size).toBe(HEALTH_STATES.length);
    expect(new Set(HEALTH_STATES.map((h) => HEALTH_NAME[h])).size).toBe(HEALTH_STATES.length);
  });

  it('applies thresholds set in the UI', () => {
    const rules = applyThresholdOverrides(RULES, { kv: [0.3, 0.6] });
    expect(instanceHealth({ kv: 0.4 }, rules).state).toBe('warning');
    expect(rules[0]).toBe(RULES[0]);
    expect(ruleLimits(RULES[1])).toEqual([0.5, 0.85]);
    expect(ruleLimits({ refId: 'x', thresholds: [] }).every(Number.isNaN)).toBe(true);
  });
});

describe('buildHexCells', () => {
  const results = [
    {
      refId: 'cells',
      unit: 'none' as const,
      samples: [
        s({ instance: 'i1', replica: 'r1', endpoint: 'chat', az: 'a', engine: 'vllm' }, '1'),
        s({ instance: 'i1', replica: 'r2', endpoint: 'chat', az: 'a', engine: 'sglang' }, '1'),
        s({ instance: 'i2', replica: 'r3', endpoint: 'chat', az: 'b', engine: 'vllm' }, '1'),
        s({ instance: 'i3', replica: 'r4', endpoint: 'llama', az: 'b', engine: 'djl' }, '1'),
        s({ instance: 'i4', replica: 'r5', endpoint: 'chat', az: 'b', engine: 'vllm' }, '1'),
      ],
    },
    { refId: 'ttft', unit: 'seconds' as const, samples: [s({ instance: 'i1' }, '1.5'), s({ instance: 'i2' }, '3'), s({ instance: 'i4' }, '0.2'), s({ instance: 'i1' }, '9')] },
    { refId: 'tps', unit: 'tokens/s' as const, samples: [s({ instance: 'i2' }, '100'), s({ instance: 'i4' }, '50')] },
    { refId: 'kv', unit: 'ratio' as const, samples: [s({ instance: 'i3' }, 'NaN')] },
  ];
  const byId = (cells: ReturnType<typeof buildHexCells>): Record<string, (typeof cells)[number]> =>
    Object.fromEntries(cells.map((c) => [c.id.replace('\u0001', '@'), c]));

  it('makes one cell per instance, merging its replicas', () => {
    const cells = byId(buildHexCells(results, OPTS, 'instance', RULES));
    expect(Object.keys(cells).sort()).toEqual(['i1@a', 'i2@b', 'i3@b', 'i4@b']);
    expect(cells['i1@a']).toMatchObject({ value: 'i1', group: 'a', instances: ['i1'], health: 'warning' });
    expect(cells['i1@a'].labels.engine).toBe('sglang, vllm');
    expect(cells['i1@a'].values).toEqual({ ttft: 1.5, tps: undefined, kv: undefined });
    expect(cells['i2@b'].health).toBe('critical');
    expect(cells['i3@b'].health).toBe('nodata');
    expect(healthCounts(Object.values(cells))).toEqual({ down: 0, critical: 1, warning: 1, starting: 0, healthy: 1, idle: 0, nodata: 1 });
  });

  it('gives a replica the fields of its instance', () => {
    const cells = byId(buildHexCells(results, OPTS, 'replica', RULES));
    expect(cells['r1@a'].values.ttft).toBe(1.5);
    expect(cells['r2@a'].values.ttft).toBe(1.5);
    expect(cells['r1@a'].instances).toEqual(['i1']);
  });

  it('makes one endpoint cell per AZ, combining its instances and taking the worst health', () => {
    const cells = byId(buildHexCells(results, OPTS, 'endpoint', RULES));
    expect(Object.keys(cells).sort()).toEqual(['chat@a', 'chat@b', 'llama@b']);
    expect(cells['chat@b'].instances).toEqual(['i2', 'i4']);
    // Latency: the worst instance; throughput: the sum.
    expect(cells['chat@b'].values).toMatchObject({ ttft: 3, tps: 150 });
    expect(cells['chat@b'].health).toBe('critical');
    expect(cellInstanceMap(Object.values(cells)).get('chat')).toEqual(['i1', 'i2', 'i4']);
  });

  it('judges the lifecycle per instance: a starting instance and a down one in the same endpoint cell', () => {
    const lifecycle = [
      { refId: 'starting', unit: 'count' as const, samples: [s({ instance: 'i3' }, '1'), s({ instance: 'i2' }, '1')] },
      { refId: 'down', unit: 'count' as const, samples: [s({ instance: 'i4' }, '1')] },
      { refId: 'idle', unit: 'count' as const, samples: [s({ instance: 'i5' }, '1')] },
    ];
    const idle = { refId: 'cells', unit: 'none' as const, samples: [...results[0].samples, s({ instance: 'i5', endpoint: 'llama', az: 'c' }, '1')] };
    const opts: HexGridOptions = { ...OPTS, lifecycle: { down: 'down', starting: 'starting', idle: 'idle' } };
    const all = [idle, ...results.slice(1), ...lifecycle];
    const cells = byId(buildHexCells(all, opts, 'instance', RULES));
    expect(cells['i3@b'].health).toBe('starting');
    expect(cells['i2@b'].health).toBe('critical'); // its TTFT P99 of 3 s outranks a replica starting beside it
    expect(cells['i4@b'].health).toBe('down');
    expect(cells['i5@c'].health).toBe('idle');
    expect(byId(buildHexCells(all, opts, 'endpoint', RULES))['chat@b'].health).toBe('down');
  });

  it('has no cells without the cells query', () => {
    expect(buildHexCells(results.slice(1), OPTS, 'instance', RULES)).toEqual([]);
  });
});
