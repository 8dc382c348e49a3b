/**
 * Redaction of texts before they are kept anywhere (the gateway's samples, the quality sample
 * store): an ordered list of rules, each an RE2 pattern and a replacement. The patterns come from
 * users' configuration and run on every sampled prompt and answer, so they are compiled with RE2
 * semantics (`compileRe2`, time linear in the input; docs/design/re2-regexps.md), never as a
 * backtracking JavaScript `RegExp`: a hostile pattern such as `(a+)+b` cannot hold the event loop.
 *
 * A replacement expands Go's `regexp.Expand` references (`$1`, `${1}`, `$name`, `${name}`, `$$`
 * for a literal `$`), as relabeling's `replacement` does.
 */
import { goExpand } from './go-expand.js';
import { compileRe2, type Re2Search } from './re2.js';

/** One redaction rule: every non-overlapping match of `pattern` (RE2 syntax) becomes `replacement`. */
export interface RedactionRule {
  readonly pattern: string;
  readonly replacement: string;
}

/**
 * The default rules (docs/quality.md, "Redaction"), applied in this order: API keys and bearer
 * tokens first (they may contain digit runs the later rules would cut up), then e-mail addresses,
 * card numbers (13 to 19 digits, optionally grouped by spaces or dashes), IPv4 addresses and
 * phone numbers (an optional `+country` and `(area code)`, then 8 to 12 digits in three
 * groups). They err towards redacting too much: a sample store holds examples, not records.
 */
export const DEFAULT_REDACTION_RULES: readonly RedactionRule[] = [
  { pattern: '(?i)\\b(?:sk|pk|rk|api|key|tok|ghp|gho|xox[abprs])[-_][A-Za-z0-9_-]{16,}\\b', replacement: '[API_KEY]' },
  { pattern: '(?i)\\bbearer\\s+[A-Za-z0-9._~+/-]{16,}=*', replacement: 'Bearer [API_KEY]' },
  { pattern: '\\bAKIA[0-9A-Z]{16}\\b', replacement: '[API_KEY]' },
  { pattern: '(?i)[a-z0-9._%+-]+@[a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.[a-z]{2,}', replacement: '[EMAIL]' },
  { pattern: '\\b(?:\\d[ -]?){12,18}\\d\\b', replacement: '[CARD]' },
  { pattern: '\\b(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\b', replacement: '[IPV4]' },
  { pattern: '(?:\\+\\d{1,3}[ .-]?)?(?:\\(\\d{2,4}\\)[ .-]?)?\\b\\d{2,4}[ .-]\\d{3,4}[ .-]?\\d{3,4}\\b', replacement: '[PHONE]' },
];

/** Thrown by `compileRedaction` for a rule whose pattern RE2 refuses; `index` names the rule. */
export class RedactionRuleError extends Error {
  /** `message` is the RE2 parser's ("error parsing regexp: …"). */
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
    this.name = 'RedactionRuleError';
  }
}

/**
 * Go's `Regexp.ReplaceAllString` over an RE2 expression: every leftmost-first, non-overlapping
 * match is replaced by `expand(groups)`; an empty match right after another match is not
 * replaced, and the search steps over a whole code point after an empty match, as Go does.
 */
export function re2ReplaceAll(re: Re2Search, src: string, expand: (groups: readonly (string | undefined)[]) => string): string {
  let out = '';
  let lastMatchEnd = 0;
  let searchPos = 0;
  while (searchPos <= src.length) {
    const m = re.execFrom(src, searchPos);
    if (m === null) break;
    out += src.slice(lastMatchEnd, m.start);
    if (m.end > lastMatchEnd || m.start === 0) out += expand(m.groups);
    lastMatchEnd = m.end;
    const width = searchPos < src.length ? String.fromCodePoint(src.codePointAt(searchPos) ?? 0).length : 1;
    if (searchPos + width > m.end) searchPos += width;
    else if (searchPos + 1 > m.end) searchPos++;
    else searchPos = m.end;
  }
  return out + src.slice(lastMatchEnd);
}

/**
 * Compiles `rules` (in order) into one function that redacts a text. Throws `RedactionRuleError`
 * naming the first rule whose pattern is not valid RE2 syntax. A rule whose replacement has no
 * `$` reference skips the expansion.
 */
export function compileRedaction(rules: readonly RedactionRule[]): (text: string) => string {
  const compiled = rules.map((r, i) => {
    let re;
    try {
      re = compileRe2(r.pattern, { anchored: false, dotAll: false });
    } catch (e) {
      throw new RedactionRuleError(i, (e as Error).message);
    }
    const literal = !r.replacement.includes('$');
    const expand = literal
      ? (): string => r.replacement
      : (groups: readonly (string | undefined)[]): string =>
          goExpand(r.replacement, (ref) => {
            const idx = typeof ref === 'number' ? ref : (re.groupNames[ref] ?? -1);
            return idx >= 0 && idx < groups.length ? groups[idx] : undefined;
          });
    return { re, expand };
  });
  return (text) => {
    let out = text;
    for (const c of compiled) if (c.re.test(out)) out = re2ReplaceAll(c.re, out, c.expand);
    return out;
  };
}
