import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withSharedData } from '../../model/testing/shared-data.js';
import { ParseError, type ParserOptions, exprToString, parseExpr, parseMetric, parseMetricSelector, prettify } from './index.js';

const ALL_ON: ParserOptions = {
  enableExperimentalFunctions: true,
  enableDurationExpressions: true,
  enableExtendedRangeSelectors: true,
  enableBinopFillModifiers: true,
};

/**
 * The parser's contract under arbitrary input: it returns a tree whose printed form parses back
 * to the same text, or it throws a ParseError. Nothing else, and never a stack overflow.
 */
function checkContract(input: string, opts: ParserOptions): void {
  let printed: string;
  try {
    const e = parseExpr(input, opts);
    printed = exprToString(e);
    prettify(e);
  } catch (err) {
    if (!(err instanceof ParseError)) throw new Error(`non-ParseError for ${JSON.stringify(input)}: ${String(err)}`, { cause: err });
    expect(err.positionRange.start).toBeGreaterThanOrEqual(0);
    expect(err.positionRange.end).toBeGreaterThanOrEqual(err.positionRange.start);
    return;
  }
  expect(exprToString(parseExpr(printed, opts)), `round trip of ${JSON.stringify(input)}`).toBe(printed);
}

function checkNeverThrowsOther(fn: () => unknown): void {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof ParseError)) throw err;
  }
}

const PROMQL_CHARS = 'abcdfmorstuwxyz_:019.eE() {}[]"\'`\\+-*/^%<>=!~,@# \nsumbyoffsetstep'.split('');
const TOKENS = [
  'foo', 'bar{a="b"}', 'sum', 'by', 'without', '(', ')', '{', '}', '[', ']', '5m', '1', '0x1f', 'Inf', 'NaN',
  '"s"', "'s'", '`r`', '+', '-', '*', '/', '^', '%', '==', '!=', '>', '<', '>=', '<=', '</', '>/', 'and', 'or',
  'unless', 'atan2', 'bool', 'on', 'ignoring', 'group_left', 'group_right', 'fill', 'fill_left', 'offset', '@',
  'start()', 'end()', 'step()', 'range()', 'min_of', 'max_of', 'rate', 'topk', 'count_values', 'anchored',
  'smoothed', ':', ',', '=~', '!~', '#c\n', 'label_replace', 'info', 'limitk', '[5m:1m]', '[1h]',
];

const optionsArb = fc.record({
  enableExperimentalFunctions: fc.boolean(),
  enableDurationExpressions: fc.boolean(),
  enableExtendedRangeSelectors: fc.boolean(),
  enableBinopFillModifiers: fc.boolean(),
});

describe('fuzz', () => {
  it('random character strings', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PROMQL_CHARS), { maxLength: 60 }), optionsArb, (chars, opts) => {
        checkContract(chars.join(''), opts);
      }),
      { numRuns: 3000, seed: 20261130 },
    );
  });

  it('random token soups', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 25 }), fc.constantFrom(' ', ''), (toks, sep) => {
        checkContract(toks.join(sep), ALL_ON);
      }),
      { numRuns: 3000, seed: 20261130 },
    );
  });

  it('arbitrary unicode strings, also for the selector and metric parsers', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (s) => {
        checkContract(s, ALL_ON);
        checkNeverThrowsOther(() => parseMetricSelector(s));
        checkNeverThrowsOther(() => parseMetric(s));
      }),
      { numRuns: 2000, seed: 20261130 },
    );
  });
});

withSharedData('fuzz over the conformance expressions', 'conformance/promqltest/index.tsv', (index) => {
  it('mutated conformance expressions', () => {
    const exprs = readFileSync(index, 'utf8')
      .split('\n')
      .slice(1)
      .filter((l) => l !== '')
      .map((l) => l.split('\t')[8]);
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...TOKENS, ...PROMQL_CHARS) }),
      fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 12 }) }),
    );
    fc.assert(
      fc.property(fc.nat({ max: exprs.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 3 }), optionsArb, (i, muts, opts) => {
        let s = exprs[i];
        for (const m of muts) {
          const at = m.at % (s.length + 1);
          if (m.kind === 'delete') s = s.slice(0, at) + s.slice(at + m.len);
          else if (m.kind === 'insert') s = s.slice(0, at) + m.text + s.slice(at);
          else s = s.slice(0, at) + s.slice(at, at + m.len) + s.slice(at);
        }
        checkContract(s, opts);
      }),
      { numRuns: 5000, seed: 20261130 },
    );
  });
});

describe('deep nesting', () => {
  const deep = (input: string): void => {
    expect(() => parseExpr(input, ALL_ON)).toThrow(/nested too deeply/);
  };

  it('accepts what real queries need', () => {
    const parens = '('.repeat(400) + 'x' + ')'.repeat(400);
    expect(exprToString(parseExpr(parens))).toBe(parens);
    const chain = Array.from({ length: 1000 }, (_, i) => `m${i}`).join(' or ');
    expect(exprToString(parseExpr(chain))).toBe(chain);
    expect(prettify(parseExpr(chain)).split('\n').length).toBeGreaterThan(1900);
    const calls = 'abs('.repeat(300) + 'x' + ')'.repeat(300);
    expect(exprToString(parseExpr(calls))).toBe(calls);
  });

  it('fails with a ParseError instead of overflowing the stack', () => {
    deep('('.repeat(100_000) + '1' + ')'.repeat(100_000));
    deep('-'.repeat(100_000) + '1');
    deep('2' + ' ^ 2'.repeat(10_000));
    deep(Array.from({ length: 1001 }, (_, i) => `m${i}`).join(' or '));
    deep('sum('.repeat(5000) + 'x' + ')'.repeat(5000));
    deep('foo[' + '('.repeat(5000) + '1' + ')'.repeat(5000) + ']');
    deep('foo[1' + '+1'.repeat(5000) + ']');
    deep('(' + '-{}-1'.repeat(10000) + ')' + '[1m:]'.repeat(1000));
    deep('foo offset (' + '('.repeat(5000) + '1' + ')'.repeat(5000) + ')');
  });
});
