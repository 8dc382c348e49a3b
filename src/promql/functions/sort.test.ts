import { describe, expect, test } from 'vitest';
import { naturalLess, sort, sortByLabel, sortByLabelDesc, sortDesc } from './sort.js';
import { runInstant, smp, str } from './testing/fixtures.js';

const http = [
  smp({ job: 'api-server', instance: '0', group: 'production' }, 100),
  smp({ job: 'api-server', instance: '1', group: 'production' }, 200),
  smp({ job: 'api-server', instance: '0', group: 'canary' }, 300),
  smp({ job: 'api-server', instance: '1', group: 'canary' }, 400),
  smp({ job: 'api-server', instance: '2', group: 'canary' }, NaN),
  smp({ job: 'app-server', instance: '0', group: 'production' }, 500),
  smp({ job: 'app-server', instance: '1', group: 'production' }, 600),
  smp({ job: 'app-server', instance: '0', group: 'canary' }, 700),
  smp({ job: 'app-server', instance: '1', group: 'canary' }, 800),
  smp({ job: 'api-server', instance: '2', group: 'production' }, 100),
];

function key(s: { metric: { get(n: string): string } }): string {
  return `${s.metric.get('group')}/${s.metric.get('instance')}/${s.metric.get('job')}`;
}

// Expected orders from upstream functions.test.
describe('sort by value', () => {
  test('sort: ascending, NaN last, ties in input order', () => {
    expect(runInstant(sort, [http]).out.map((s) => s.f)).toEqual([100, 100, 200, 300, 400, 500, 600, 700, 800, NaN]);
    expect(runInstant(sort, [http]).out.slice(0, 2).map(key)).toEqual(['production/0/api-server', 'production/2/api-server']);
  });

  test('sort_desc: descending, NaN last', () => {
    expect(runInstant(sortDesc, [http]).out.map((s) => s.f)).toEqual([800, 700, 600, 500, 400, 300, 200, 100, 100, NaN]);
  });

  test('NaNs end up in reverse input order, as Go insertion-sorts them', () => {
    const v = [smp({ a: '1' }, NaN), smp({ a: '2' }, 1), smp({ a: '3' }, NaN)];
    expect(runInstant(sort, [v]).out.map((s) => s.metric.get('a'))).toEqual(['2', '3', '1']);
  });

  test('outputs are new samples at the evaluation time, dropName kept', () => {
    const v = [smp({ a: '1' }, 2, true)];
    const out = runInstant(sort, [v], [], { tMs: 5 }).out;
    expect(out[0]).not.toBe(v[0]);
    expect(out[0]).toMatchObject({ t: 5, f: 2, dropName: true });
  });
});

describe('sort_by_label', () => {
  test.each([
    {
      labels: ['instance'],
      desc: false,
      want: [
        'canary/0/api-server',
        'canary/0/app-server',
        'production/0/api-server',
        'production/0/app-server',
        'canary/1/api-server',
        'canary/1/app-server',
        'production/1/api-server',
        'production/1/app-server',
        'canary/2/api-server',
        'production/2/api-server',
      ],
    },
    {
      labels: ['group', 'instance', 'job'],
      desc: false,
      want: [
        'canary/0/api-server',
        'canary/0/app-server',
        'canary/1/api-server',
        'canary/1/app-server',
        'canary/2/api-server',
        'production/0/api-server',
        'production/0/app-server',
        'production/1/api-server',
        'production/1/app-server',
        'production/2/api-server',
      ],
    },
    {
      labels: ['instance'],
      desc: true,
      want: [
        'production/2/api-server',
        'canary/2/api-server',
        'production/1/app-server',
        'production/1/api-server',
        'canary/1/app-server',
        'canary/1/api-server',
        'production/0/app-server',
        'production/0/api-server',
        'canary/0/app-server',
        'canary/0/api-server',
      ],
    },
  ])('$labels desc=$desc', ({ labels, desc, want }) => {
    const out = runInstant(desc ? sortByLabelDesc : sortByLabel, [http], [str('x'), ...labels.map(str)]).out;
    expect(out.map(key)).toEqual(want);
  });

  test('natural order of numbers', () => {
    const cpus = ['10', '2', '100', '0', '21', '1', '12', '3', '11', '20'].map((cpu) => smp({ cpu }, 1));
    const out = runInstant(sortByLabel, [cpus], [str('x'), str('cpu')]).out;
    expect(out.map((s) => s.metric.get('cpu'))).toEqual(['0', '1', '2', '3', '10', '11', '12', '20', '21', '100']);
  });

  test.each([
    ['4m5', '4m600', true],
    ['4m600', '4m1000', true],
    ['1.2.3', '1.11.3', true],
    ['1.111.3', '1.11.3', false],
    ['a', 'b', true],
    ['b', 'a', false],
    ['a1', 'a1b', true],
    ['a1b', 'a1', false],
    ['', 'x', false],
    ['x', '', true],
    ['99999999999999999999', '100000000000000000000', false], // beyond int64: compared as strings
    ['007', '7', true], // equal numbers: "a ends first" wins either way
  ] as const)('naturalLess(%j, %j) = %s', (a, b, want) => {
    expect(naturalLess(a, b)).toBe(want);
  });
});
