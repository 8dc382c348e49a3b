/**
 * Regular expressions with RE2 semantics, as Prometheus' label matchers, `label_replace` and
 * relabeling use them: the syntax RE2 accepts (and nothing else), leftmost-first matching, and
 * time linear in the input. JavaScript's own engine backtracks, so a hostile pattern such as
 * `(a+)+b` against 32 `a`s takes minutes there; `re2js` (a port of RE2/J) never does. Only the
 * matchers' fast paths (literals, sets, prefixes, see matcher.ts) bypass it.
 *
 * Syntax errors carry Go's `regexp/syntax` message about the pattern as written, e.g.
 * "error parsing regexp: missing closing ): `(`", as Prometheus 3 reports them.
 */
import { RE2JS, RE2JSException } from 're2js';

/** An error in a regular expression, worded like Go's `regexp/syntax` errors. */
export class Re2SyntaxError extends Error {
  /** `message` is the whole text ("error parsing regexp: …: `…`"). */
  constructor(
    message: string,
    readonly pattern: string,
  ) {
    super(message);
    this.name = 'Re2SyntaxError';
  }
}

/**
 * A compiled RE2 expression. `test` reports whether it matches somewhere in the input (anchors in
 * the pattern decide where); `exec` also returns the submatches as a `RegExpExecArray` does:
 * index 0 is the match, groups that took no part are `undefined`, named groups are in `groups`.
 */
export interface Re2Regexp {
  /** The pattern as given, without the anchors `compileRe2` adds. */
  readonly source: string;
  test(input: string): boolean;
  exec(input: string): RegExpExecArray | null;
}

/** Searching from an offset, which `compileRe2`'s expressions also offer. */
export interface Re2Search {
  /**
   * The leftmost match that starts at or after `start`, with anchors and `\b` judged against the
   * whole input (Go's search from an offset, which `ReplaceAllString` repeats): the match's
   * start, end and groups (`undefined` for a group that took no part), and the group names.
   */
  execFrom(input: string, start: number): { readonly start: number; readonly end: number; readonly groups: readonly (string | undefined)[] } | null;
  /** The index of each named group. */
  readonly groupNames: Readonly<Record<string, number>>;
}

/** How `compileRe2` wraps a pattern. */
export interface Re2Options {
  /** Match the whole input only (`^(?:p)$`). */
  readonly anchored: boolean;
  /** `.` also matches `\n` (Go's `(?s)`). */
  readonly dotAll: boolean;
}

function compileOrThrow(expr: string, flags: number, pattern: string): RE2JS {
  try {
    return RE2JS.compile(expr, flags);
  } catch (e) {
    if (e instanceof RE2JSException) throw new Re2SyntaxError(e.message, pattern);
    throw e;
  }
}

/**
 * Compiles `pattern` (RE2 syntax). The pattern is checked on its own first, so that an error
 * quotes it as written rather than with the anchors added here. Throws `Re2SyntaxError`.
 */
export function compileRe2(pattern: string, o: Re2Options): Re2Regexp & Re2Search {
  // Without flags: re2js spells a flag into the expression, and the message would quote it.
  const plain = compileOrThrow(pattern, 0, pattern);
  const re = o.anchored || o.dotAll ? compileOrThrow(o.anchored ? `^(?:${pattern})$` : pattern, o.dotAll ? RE2JS.DOTALL : 0, pattern) : plain;
  return {
    source: pattern,
    test: o.anchored ? (s) => re.matches(s) : (s) => re.test(s),
    exec: (s) => re.exec(s) as RegExpExecArray | null,
    execFrom: (s, start) => {
      const m = re.matcher(s);
      if (!m.find(start)) return null;
      const groups: (string | undefined)[] = [];
      for (let i = 0; i <= m.groupCount(); i++) groups.push(m.group(i) ?? undefined);
      return { start: m.start(), end: m.end(), groups };
    },
    groupNames: re.namedGroups(),
  };
}

/**
 * Compiles `pattern` as Prometheus does for label matchers and `label_replace`: fully anchored,
 * `.` matching newlines (`^(?s:p)$`). Throws `Re2SyntaxError` for invalid or unsupported syntax.
 */
export function compileAnchoredRe2(pattern: string): Re2Regexp {
  return compileRe2(pattern, { anchored: true, dotAll: true });
}
