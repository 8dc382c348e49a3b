import { describe, expect, test } from 'vitest';
import { goQuote, goQuoteRune, goRuneHash } from './go-quote.js';

// Expected strings are what Go's strconv.Quote, strconv.QuoteRune and %#U print.
describe('goQuote (%q)', () => {
  test.each([
    ['abc', '"abc"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['tab\there\n', '"tab\\there\\n"'],
    ['\u0001\u007f', '"\\x01\\x7f"'],
    ['ünï', '"ünï"'],
    ['\u00a0', '"\\u00a0"'],
    ['😀', '"😀"'],
  ])('%j → %s', (s, want) => {
    expect(goQuote(s)).toBe(want);
  });
});

describe('goQuoteRune and goRuneHash (%q and %#U of a rune)', () => {
  test.each([
    [0x63, "'c'", "U+0063 'c'"],
    [0x27, "'\\''", "U+0027 '''"],
    [0x07, "'\\a'", 'U+0007'],
    [0x1f600, "'😀'", "U+1F600 '😀'"],
  ])('%s → %s, %s', (cp, quoted, hash) => {
    expect(goQuoteRune(cp)).toBe(quoted);
    expect(goRuneHash(cp)).toBe(hash);
  });

  test('an invalid rune (EOF) quotes as U+FFFD', () => {
    expect(goQuoteRune(-1)).toBe("'\uFFFD'");
  });
});
