import { describe, expect, it } from 'vitest';
import { DEFAULT_REDACTION_RULES, RedactionRuleError, compileRedaction } from './redact.js';

describe('compileRedaction', () => {
  it.each<[string, { pattern: string; replacement: string }[], string, string]>([
    ['a literal replacement', [{ pattern: '\\d{3}-\\d{4}', replacement: '[PHONE]' }], 'call 555-1234 or 555-9876', 'call [PHONE] or [PHONE]'],
    ['Go expansion of groups', [{ pattern: '(?P<user>\\w+)@(\\w+)\\.com', replacement: '${user}@[$2]' }], 'mail bob@corp.com', 'mail bob@[corp]'],
    ['$$ is a literal dollar', [{ pattern: 'cost', replacement: '$$' }], 'cost', '$'],
    ['rules in order', [{ pattern: 'a', replacement: 'b' }, { pattern: 'b', replacement: 'c' }], 'ab', 'cc'],
    ['(?i) for case', [{ pattern: '(?i)secret', replacement: '***' }], 'SECRET and Secret', '*** and ***'],
    ['no match keeps the text', [{ pattern: 'zzz', replacement: 'y' }], 'abc', 'abc'],
    ['empty matches as Go replaces them', [{ pattern: 'x*', replacement: '-' }], 'abxc', '-a-b-c-'],
    ['astral code points stay whole', [{ pattern: 'q?', replacement: '.' }], '🤖', '.🤖.'],
  ])('%s', (_, rules, input, want) => {
    expect(compileRedaction(rules)(input)).toBe(want);
  });

  it('takes time linear in the input on a pattern that makes a backtracking engine hang', () => {
    // (a+)+b on 5,000 a's: minutes with JavaScript's RegExp, a moment with RE2. Not a timing assertion: it just ends.
    expect(compileRedaction([{ pattern: '(a+)+b', replacement: 'x' }])('a'.repeat(5000))).toBe('a'.repeat(5000));
  });

  it.each<[string, number]>([['(', 0], ['a(?=b)', 1]])('refuses %s, naming the rule', (pattern, at) => {
    const rules = [{ pattern: 'ok', replacement: '' }, { pattern, replacement: '' }].slice(1 - at);
    expect(() => compileRedaction(rules)).toThrow(RedactionRuleError);
    try {
      compileRedaction(rules);
    } catch (e) {
      expect((e as RedactionRuleError).index).toBe(at);
      expect((e as Error).message).toMatch(/^error parsing regexp: /);
    }
  });
});

describe('the default redaction rules', () => {
  const redact = compileRedaction(DEFAULT_REDACTION_RULES);
  it.each([
    ['e-mail', 'write to jane.doe+llm@example.co.uk today', 'write to [EMAIL] today'],
    ['phone, international', 'call +1 415-555-0132 now', 'call [PHONE] now'],
    ['phone, local groups', 'ring 030 1234 5678', 'ring [PHONE]'],
    ['card, grouped', 'card 4111 1111 1111 1111 exp', 'card [CARD] exp'],
    ['card, plain', 'card 5500005555555559.', 'card [CARD].'],
    ['IPv4', 'from 10.0.12.255:8080', 'from [IPV4]:8080'],
    ['OpenAI-style key', 'key sk-proj_abcdefghijklmnop1234 end', 'key [API_KEY] end'],
    ['bearer token', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig', 'Authorization: Bearer [API_KEY]'],
    ['AWS access key id', 'AKIAIOSFODNN7EXAMPLE', '[API_KEY]'],
    ['plain prose is kept', 'The answer is 42, version 3.1, in 2026.', 'The answer is 42, version 3.1, in 2026.'],
  ])('%s', (_, input, want) => {
    expect(redact(input)).toBe(want);
  });
});
