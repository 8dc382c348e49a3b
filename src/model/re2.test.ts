import { describe, expect, it } from 'vitest';
import { Matcher } from './matcher.js';
import { Re2SyntaxError, compileAnchoredRe2, compileRe2 } from './re2.js';

describe('RE2 semantics', () => {
  it.each([
    // RE2-only spellings JavaScript lacks or reads differently.
    ['\\Q.*\\E', '.*', true],
    ['\\Q.*\\E', 'ab', false],
    ['(?P<n>a)b', 'ab', true],
    ['[[:alpha:]]+', 'abC', true],
    ['[[:digit:]]', 'a', false],
    ['(?i)vllm', 'VLLM', true],
    ['a(?i:b)c', 'aBc', true],
    ['a(?i:b)c', 'aBC', false],
    ['\\pL+', 'héllo', true],
    ['a{,2}', 'a{,2}', true], // RE2: a brace that is no repeat is a literal
    ['x\\z', 'x', true],
    // Prometheus anchors matchers and lets `.` match a newline.
    ['a.c', 'a\nc', true],
    ['b', 'abc', false],
    ['a|ab', 'ab', true],
  ])('%s on %j: %s', (pattern, value, want) => {
    expect(compileAnchoredRe2(pattern).test(value)).toBe(want);
  });

  it('keeps submatches leftmost-first, as Go does', () => {
    const m = compileAnchoredRe2('(a|ab)(c|bcd)(d*)').exec('abcd');
    expect(m?.slice(1)).toEqual(['a', 'bcd', '']);
    const named = compileAnchoredRe2('(?P<host>[^:]+)(?::(?P<port>\\d+))?').exec('gpu-1');
    expect(named?.groups).toEqual(expect.objectContaining({ host: 'gpu-1', port: undefined }));
  });

  it('without dot-all, `.` does not match a newline (relabeling)', () => {
    expect(compileRe2('a.c', { anchored: true, dotAll: false }).test('a\nc')).toBe(false);
    expect(compileRe2('b', { anchored: false, dotAll: false }).test('abc')).toBe(true);
  });

  it('quotes the pattern as written in its errors', () => {
    expect(() => compileAnchoredRe2('(')).toThrow(new Re2SyntaxError('error parsing regexp: missing closing ): `(`', '('));
  });

  // Each of these froze the server for minutes with JavaScript's backtracking engine (issue 14:
  // 127 s and 52 s); in RE2 they are linear. A regression shows as this test's timeout.
  it.each([
    ['(a+)+b', 'a'.repeat(32)],
    ['(a|aa)+$x', 'a'.repeat(40)],
    ['(.|\\\\.|[a-z0-9.:-])*#', 'ip-10-0-12-34.us-east-1.compute.internal:9400-vllm-replica-0007-abcdefghij'],
    ['(x+x+)+y', 'x'.repeat(5000)],
  ])('%s against a hostile value answers false at once', (pattern, value) => {
    expect(new Matcher('=~', 'v', pattern).matches(value)).toBe(false);
    expect(new Matcher('!~', 'v', pattern).matches(value)).toBe(true);
  });
});
