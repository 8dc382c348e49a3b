/**
 * Go's quoting verbs, which Prometheus' messages use for names, strings and runes, reproduced so
 * that Infersight's texts match byte for byte: `strconv.Quote` (`%q`), `strconv.QuoteRune` and
 * `%#U`. Number printing is in `go-number.ts`.
 */

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** Go's `strconv.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isPrint(cp: number): boolean {
  if (cp < 0x80) return cp >= 0x20 && cp < 0x7f;
  return PRINTABLE.test(String.fromCodePoint(cp));
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** Appends the Go escape of one code point inside a quoted literal delimited by `quote`. */
function escapeRune(cp: number, quote: number): string {
  if (cp === quote || cp === 0x5c) return '\\' + String.fromCharCode(cp);
  if (isPrint(cp)) return String.fromCodePoint(cp);
  switch (cp) {
    case 0x07:
      return '\\a';
    case 0x08:
      return '\\b';
    case 0x0c:
      return '\\f';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x09:
      return '\\t';
    case 0x0b:
      return '\\v';
  }
  if (cp < 0x20 || cp === 0x7f) return '\\x' + hex(cp, 2);
  // A lone surrogate U+DC80..U+DCFF stands for an invalid UTF-8 byte (see `unquoteString`).
  if (cp >= 0xdc80 && cp <= 0xdcff) return '\\x' + hex(cp - 0xdc00, 2);
  if (cp >= 0xd800 && cp <= 0xdfff) return '\\ufffd';
  if (cp < 0x10000) return '\\u' + hex(cp, 4);
  return '\\U' + hex(cp, 8);
}

/** Go's `strconv.Quote` (and `%q` of a string): a double-quoted Go string literal. */
export function goQuote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) {
      out += s[i];
      continue;
    }
    const cp = s.codePointAt(i) ?? c;
    if (cp > 0xffff) i++;
    out += escapeRune(cp, 0x22);
  }
  return out + '"';
}

/** Go's `strconv.QuoteRune` (`%q` of a rune); an invalid rune (such as EOF, -1) prints as U+FFFD. */
export function goQuoteRune(cp: number): string {
  const r = cp < 0 || cp > 0x10ffff ? 0xfffd : cp;
  return "'" + escapeRune(r, 0x27) + "'";
}

/** Go's `%#U` of a rune: `U+0063 'c'`, or just `U+0007` when the rune is not printable. */
export function goRuneHash(cp: number): string {
  const code = 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
  return isPrint(cp) ? `${code} '${String.fromCodePoint(cp)}'` : code;
}
