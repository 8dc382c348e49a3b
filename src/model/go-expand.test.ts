import { describe, expect, it } from 'vitest';
import { goExpand, goExpandMatch } from './go-expand.js';

// The union of the tables relabeling and label_replace had for their own copies.
describe('goExpandMatch (Go regexp.Expand), relabeling\'s table', () => {
  const m = /^(?<word>a)(b)?(c)$/u.exec('ac') as RegExpExecArray;
  it.each([
    ['$1', 'a'],
    ['${1}', 'a'],
    ['$2', ''],
    ['$3', 'c'],
    ['$9', ''],
    ['$word', 'a'],
    ['${word}x', 'ax'],
    ['$wordx', ''],
    ['$$1', '$1'],
    ['$', '$'],
    ['${', '${'],
    ['${1', '${1'],
    ['a$-b', 'a$-b'],
    ['$01', ''],
  ])('%j → %j', (template, want) => {
    expect(goExpandMatch(template, m)).toBe(want);
  });
});


describe('goExpandMatch (Go Regexp.ExpandString), label_replace\'s table', () => {
  const m = /^(?<word>a+)(b*)(c)?$/u.exec('aab')!;
  it.each([
    ['$1', 'aa'],
    ['${1}', 'aa'],
    ['$2-$1', 'b-aa'],
    ['$3', ''],
    ['$9', ''],
    ['$0', 'aab'],
    ['$word', 'aa'],
    ['${word}!', 'aa!'],
    ['$$1', '$1'],
    ['$', '$'],
    ['${1', '${1'],
    ['$-', '$-'],
    ['$01', ''],
    ['$1a', ''],
    ['${1}a', 'aaa'],
    ['x$', 'x$'],
  ])('%s', (template, want) => {
    expect(goExpandMatch(template, m)).toBe(want);
  });
});

describe('goExpand with a group lookup (reReplaceAll\'s form)', () => {
  const groups = ['xay', 'a', undefined];
  const names: Record<string, number> = { mid: 1 };
  const lookup = (ref: number | string): string | undefined => {
    const i = typeof ref === 'number' ? ref : (names[ref] ?? -1);
    return i >= 0 && i < groups.length ? groups[i] : undefined;
  };
  it.each([
    ['$1-$mid-${0}', 'a-a-xay'],
    ['$2', ''],
    ['$100000000', ''], // not a number in Go (1e8 and more): a name, which does not exist
    ['$99999999', ''],
    ['$$', '$'],
  ])('%j → %j', (template, want) => {
    expect(goExpand(template, lookup)).toBe(want);
  });
});
