import { describe, expect, it } from 'vitest';
import { Matcher } from './matcher.js';
import { Re2SyntaxError, compileAnchoredRe2 } from './re2.js';

/** check(type, pattern, value, want): one row of the matcher table. */
const check = (type: '=' | '!=' | '=~' | '!~', pattern: string, value: string, want: boolean) =>
  expect(new Matcher(type, 'l', pattern).matches(value), `${type}"${pattern}" on ${JSON.stringify(value)}`).toBe(want);

describe('Matcher', () => {
  it.each<['=' | '!=' | '=~' | '!~', string, string, boolean]>([
    ['=', 'a', 'a', true],
    ['=', 'a', 'ab', false],
    ['=', '', '', true],
    ['!=', 'a', '', true],
    ['!=', 'a', 'a', false],
    // Regexes are fully anchored.
    ['=~', 'a', 'ab', false],
    ['=~', 'a.*', 'ab', true],
    ['=~', 'b', 'ab', false],
    ['=~', 'a|b', 'b', true],
    ['=~', 'a|b', 'ab', false],
    ['!~', 'a|b', 'c', true],
    ['!~', 'a|b', 'a', false],
    // . matches newlines (Prometheus 3 compiles with (?s)).
    ['=~', 'a.b', 'a\nb', true],
    ['=~', '.*', 'x\ny', true],
    ['=~', '.+', '', false],
    ['=~', '.*', '', true],
    // RE2 spellings translated to JavaScript.
    ['=~', '(?i)vllm', 'VLLM', true],
    ['=~', 'x(?i:ab)y', 'xABy', true],
    ['=~', 'x(?i:ab)y', 'XABy', false],
    ['=~', '[[:digit:]]+', '0123', true],
    ['=~', '[[:alpha:]_]+', 'ab_c', true],
    ['=~', '\\Qa.b\\E', 'a.b', true],
    ['=~', '\\Qa.b\\E', 'axb', false],
    ['=~', '(?P<n>a)b', 'ab', true],
    ['=~', 'a{2}', 'aa', true],
    ['=~', 'a{', 'a{', true], // RE2: a lone brace is a literal
    ['=~', 'x}', 'x}', true],
    ['=~', '\\d\\s\\w', '1 a', true],
    ['=~', '\\s', '\u00a0', false], // RE2's \s is ASCII whitespace only
    ['=~', '\\x{263a}', '☺', true],
    ['=~', '\\pL+', 'ünï', true],
    ['=~', 'a\\z', 'a', true],
    ['=~', '\\-\\:', '-:', true],
    ['=~', '[a\\-z]', '-', true],
    ['=~', 'gpt-oss-20b|Qwen2\\.5-7B-Instruct', 'Qwen2.5-7B-Instruct', true],
    ['=~', 'vllm:.*_seconds', 'vllm:time_to_first_token_seconds', true],
  ])('%s"%s" matches %j: %s', (type, pattern, value, want) => check(type, pattern, value, want));

  it.each([
    ['(a', /missing closing \)/],
    ['a)', /unexpected \)/],
    ['[a', /missing closing \]/],
    ['a{1001}', /invalid repeat count/],
    ['(a)\\1', /invalid escape sequence/],
    ['(?=a)', /invalid or unsupported Perl syntax/],
    // Go 1.22+ (Prometheus 3) reads `(?<` as a named group; Go 1.20 (Prometheus 2.42) said "unsupported Perl syntax".
    ['(?<!a)b', /invalid named capture: `\(\?<!a\)b`/],
    ['a**', /error parsing regexp/],
    ['\\', /trailing backslash/],
  ])('rejects %s like Go does', (pattern, message) => {
    let err: unknown;
    try {
      new Matcher('=~', 'l', pattern);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Re2SyntaxError);
    expect((err as Error).message).toMatch(message);
  });

  it('exposes set lookups and prefixes for index use', () => {
    expect(new Matcher('=~', 'l', 'a|b|c').setMatches).toEqual(['a', 'b', 'c']);
    expect(new Matcher('=', 'l', 'x').setMatches).toEqual(['x']);
    expect(new Matcher('!=', 'l', 'x').setMatches).toBeUndefined();
    expect(new Matcher('=~', 'l', 'a.+').setMatches).toBeUndefined();
    expect(new Matcher('=~', 'l', 'ip-10-0-1.*').prefix).toBe('ip-10-0-1');
    expect(new Matcher('=~', 'l', '.*').matchesEmpty()).toBe(true);
    expect(new Matcher('=', 'l', 'x').matchesEmpty()).toBe(false);
  });

  // The literal fast paths (prefix, suffix, infix, sets) must answer exactly what RE2 answers.
  it.each(['vllm.*', '.*-prod', '.*gpu.*', 'a|b|c', 'exact'])('fast path %s agrees with RE2', (pattern) => {
    const re = compileAnchoredRe2(pattern);
    const m = new Matcher('=~', 'l', pattern);
    for (const v of ['', 'vllm', 'vllm:x', 'xvllm', 'chat-prod', 'chat-prod\n', '-prod', 'a-gpu-b', 'gpu', 'gp', 'a', 'ab', 'exact', 'exactly', '\ngpu\n']) {
      expect(m.matches(v), `${pattern} on ${JSON.stringify(v)}`).toBe(re.test(v));
    }
  });
});
