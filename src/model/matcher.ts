import { compileAnchoredRe2 } from './re2.js';

/** The four label matcher operators of PromQL. */
export type MatchType = '=' | '!=' | '=~' | '!~';

const LITERAL_RE = /^[^\\^$.|?*+()[\]{}]*$/;

/**
 * A condition on one label's value, with Prometheus semantics: a missing label has the value '',
 * so `{foo=""}` selects series without `foo` and `{foo=~".*"}` selects every series. Regular
 * expressions use RE2 syntax and semantics (linear time, see re2.ts), are fully anchored and let
 * `.` match newlines.
 *
 * Construction validates the regex and throws `Re2SyntaxError` when it is invalid. Matchers are
 * immutable and cheap to share. `matches` is the only thing hot paths call.
 */
export class Matcher {
  /** Reports whether a label value satisfies this matcher. */
  readonly matches: (value: string) => boolean;
  /**
   * For `=` and for `=~` regexes that are a plain alternation of literals (`a|b|c`), the exact set
   * of values that match; storage indexes use it to look postings up directly instead of scanning
   * every value. Undefined otherwise.
   */
  readonly setMatches: readonly string[] | undefined;
  /** A literal prefix every matching value has (`foo.*` → `foo`), or '' when none is known. */
  readonly prefix: string;
  /**
   * True for `=~".*"`, which every value (and a missing label) satisfies: it selects nothing away,
   * so indexes skip it. Dashboards write one per unset variable.
   */
  readonly matchesAll: boolean;

  constructor(
    readonly type: MatchType,
    readonly name: string,
    readonly value: string,
  ) {
    this.matchesAll = type === '=~' && value === '.*';
    let setMatches: string[] | undefined;
    let prefix = '';
    let positive: (v: string) => boolean;
    if (type === '=' || type === '!=') {
      positive = (v) => v === value;
      setMatches = [value];
    } else {
      const re = compileAnchoredRe2(value);
      if (value === '.*') positive = () => true;
      else if (value === '.+') positive = (v) => v !== '';
      else if (LITERAL_RE.test(value)) {
        positive = (v) => v === value;
        setMatches = [value];
      } else if (/^[^\\^$.|?*+()[\]{}]+(\|[^\\^$.|?*+()[\]{}]+)+$/.test(value)) {
        const set = new Set(value.split('|'));
        positive = (v) => set.has(v);
        setMatches = [...set];
      } else {
        // Literal prefixes, suffixes and infixes (`foo.*`, `.*foo`, `.*foo.*`) skip the RE2 engine.
        const m = /^(\.\*)?([^\\^$.|?*+()[\]{}]+)(\.\*)?$/.exec(value);
        if (m !== null && m[1] === undefined) {
          prefix = m[2];
          positive = (v) => v.startsWith(prefix);
        } else if (m !== null && m[3] === undefined) {
          const suffix = m[2];
          positive = (v) => v.endsWith(suffix);
        } else if (m !== null) {
          const infix = m[2];
          positive = (v) => v.includes(infix);
        } else {
          positive = (v) => re.test(v);
        }
      }
    }
    const negate = type === '!=' || type === '!~';
    this.matches = negate ? (v) => !positive(v) : positive;
    this.setMatches = negate ? undefined : setMatches;
    this.prefix = negate ? '' : prefix;
  }

  /** Reports whether this matcher selects series that lack the label (it matches ''). */
  matchesEmpty(): boolean {
    return this.matches('');
  }

  /** PromQL notation, e.g. `job=~"vllm|sglang"`. */
  toString(): string {
    return `${this.name}${this.type}${JSON.stringify(this.value)}`;
  }
}

/** Shorthand constructor. */
export function matcher(type: MatchType, name: string, value: string): Matcher {
  return new Matcher(type, name, value);
}
