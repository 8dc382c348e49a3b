import { describe, expect, it } from 'vitest';
import type { Call, DurationExpr, Expr, MatrixSelector, SubqueryExpr, VectorSelector } from '../parser/ast.js';
import { atModifierVariants, usesQueryFrame } from './at-modifier.js';

const pos = { start: 0, end: 0 };
const vs = (name: string, timestampMs: number | null = null, startOrEnd: 'start' | 'end' | null = null): VectorSelector => ({
  type: 'VectorSelector',
  name,
  matchers: [],
  offsetMs: 0,
  offsetExpr: null,
  timestampMs,
  startOrEnd,
  anchored: false,
  smoothed: false,
  pos,
});
const ms = (v: VectorSelector): MatrixSelector => ({ type: 'MatrixSelector', vectorSelector: v, rangeMs: 60_000, rangeExpr: null, pos });
const call = (name: string, ...args: Expr[]): Call => ({
  type: 'Call',
  func: { name, argTypes: [], variadic: 0, returnType: 'vector', experimental: false },
  args,
  pos,
});
const sq = (expr: Expr, timestampMs: number | null = null): SubqueryExpr => ({
  type: 'SubqueryExpr',
  expr,
  rangeMs: 300_000,
  rangeExpr: null,
  stepMs: 0,
  stepExpr: null,
  offsetMs: 0,
  offsetExpr: null,
  timestampMs,
  startOrEnd: null,
  pos,
});
const dur = (op: DurationExpr['op']): DurationExpr => ({ type: 'DurationExpr', op, lhs: null, rhs: null, wrapped: false, pos });

/** Prints just enough of an expression to see where `@` went. */
function show(e: Expr): string {
  const at = (t: number | null, se: string | null): string => (t !== null ? ` @ ${t}` : se !== null ? ` @ ${se}()` : '');
  switch (e.type) {
    case 'VectorSelector':
      return `${e.name}${at(e.timestampMs, e.startOrEnd)}`;
    case 'MatrixSelector':
      return `${e.vectorSelector.name}[1m]${at(e.vectorSelector.timestampMs, e.vectorSelector.startOrEnd)}`;
    case 'SubqueryExpr':
      return `(${show(e.expr)})[5m:]${at(e.timestampMs, e.startOrEnd)}`;
    case 'Call':
      return `${e.func.name}(${e.args.map(show).join(', ')})`;
    case 'BinaryExpr':
      return `${show(e.lhs)} ${e.op} ${show(e.rhs)}`;
    default:
      return e.type;
  }
}

describe('atModifierVariants', () => {
  it('pins every selector without @ and runs at -10T, 0, T/5, T, 10T', () => {
    const e: Expr = { type: 'BinaryExpr', op: '+', lhs: call('rate', ms(vs('a'))), rhs: vs('b', 5000), matching: null, returnBool: false, pos };
    const vars = atModifierVariants(e, 3_000_003);
    expect(vars.map((v) => v.tMs)).toEqual([-30_000_030, 0, 600_000, 3_000_003, 30_000_030]);
    expect(show(vars[0].expr)).toBe('rate(a[1m] @ 3000003) + b @ 5000');
    expect(show(e)).toBe('rate(a[1m]) + b @ 5000'); // the input is not modified
  });

  it('uses -1s, 0, 1s when T is 0', () => {
    expect(atModifierVariants(vs('a'), 0).map((v) => v.tMs)).toEqual([-1000, 0, 1000]);
  });

  it('replaces @ start() / @ end() by the timestamp, as Go does', () => {
    const [v] = atModifierVariants(vs('a', null, 'start'), 60_000);
    expect(show(v.expr)).toBe('a @ 60000');
  });

  it('pins a subquery and leaves its inside alone, unsafe calls included', () => {
    const [v] = atModifierVariants(call('max_over_time', sq(call('time'))), 60_000);
    expect(show(v.expr)).toBe('max_over_time((time())[5m:] @ 60000)');
    const [w] = atModifierVariants(call('max_over_time', sq(vs('a'), 1000)), 60_000);
    expect(show(w.expr)).toBe('max_over_time((a)[5m:] @ 1000)');
  });

  it.each(['time', 'timestamp', 'hour', 'day_of_week', 'predict_linear', 'step'])('gives no variants for %s()', (name) => {
    expect(atModifierVariants(call('abs', call(name, vs('a'))), 60_000)).toEqual([]);
  });
});

describe('usesQueryFrame', () => {
  it.each<[string, Expr, boolean]>([
    ['plain selector', vs('a'), false],
    ['@ start()', vs('a', null, 'end'), true],
    ['step() call', call('step'), true],
    ['step() in a range', { ...ms(vs('a')), rangeExpr: dur('step') }, true],
    ['min_of in an offset', { ...vs('a'), offsetExpr: { ...dur('min_of'), lhs: dur('range'), rhs: null } }, true],
    ['inside a subquery', sq(vs('a', null, 'start')), true],
    ['a call with arguments', call('abs', vs('a')), false],
  ])('%s', (_name, e, want) => {
    expect(usesQueryFrame(e)).toBe(want);
  });
});
