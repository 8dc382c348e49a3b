/**
 * Character-class helpers for the stage-1 scans. Every check walks its input once with these
 * instead of running JavaScript regular expressions over it (which backtrack: a hostile answer
 * must never cost more than time linear in its length).
 */

/** ASCII letters and digits. */
export function isAsciiAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** ASCII digits. */
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Whitespace as `String.prototype.trim` sees it, plus the zero-width characters an "empty" answer hides behind. */
export function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200d) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x2060 ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

const WORD_RE = /^[\p{L}\p{N}\p{M}]$/u;

/**
 * Whether the UTF-16 unit `c` belongs to a word: ASCII letters and digits, and any non-ASCII
 * letter, mark or number (a surrogate half counts as a word character, so astral letters are
 * words; astral symbols such as emoji are rare enough in word positions not to matter). The
 * regular expression runs on one character, never on the input.
 */
export function isWordUnit(c: number): boolean {
  if (c < 128) return isAsciiAlnum(c) || c === 95;
  if (c >= 0xd800 && c <= 0xdfff) return true;
  return WORD_RE.test(String.fromCharCode(c));
}

/** Lower-cases and folds typographic apostrophes to `'`, so phrase lists need one spelling. */
export function foldCase(text: string): string {
  return text.toLowerCase().replaceAll('\u2019', "'").replaceAll('\u2018', "'");
}

/** The index after the last non-space unit (0 when the text is blank). */
export function trimmedEnd(text: string): number {
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  return end;
}

/** The index of the first non-space unit (`text.length` when blank). */
export function trimmedStart(text: string): number {
  let i = 0;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}
