/**
 * Go's `regexp.Expand` template semantics, the one implementation behind relabeling's
 * `replacement` and `target_label` (src/config), PromQL's `label_replace` (src/promql) and the
 * alert templates' `reReplaceAll` (src/rules/template): `$1`, `${1}`, `$name`, `${name}`; `$$` is
 * a literal `$`. A name is the longest run of letters, digits and `_` (so `$1x` names the group
 * `1x`, which usually does not exist and expands to ''); a number has no leading zero and is
 * below 1e8, as Go parses it; a malformed reference (`$`, `${`, `${x`) is kept as literal text.
 */

const NAME_CHAR = /[\p{L}\p{Nd}_]/u;

interface Ref {
  name: string;
  /** The group number, or -1 for a name. */
  num: number;
  /** Characters of the template consumed after the `$`. */
  length: number;
}

/** Go's `extract`: the name after a `$`, or undefined when malformed. */
function extract(s: string, at: number): Ref | undefined {
  let i = at;
  const brace = s[i] === '{';
  if (brace) i++;
  const start = i;
  while (i < s.length) {
    const cp = s.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    if (!NAME_CHAR.test(ch)) break;
    i += ch.length;
  }
  if (i === start) return undefined;
  const name = s.slice(start, i);
  if (brace) {
    if (s[i] !== '}') return undefined;
    i++;
  }
  let num = /^\d+$/.test(name) && !(name.length > 1 && name.startsWith('0')) ? Number(name) : -1;
  if (num >= 1e8) num = -1;
  return { name, num, length: i - at };
}

/**
 * Expands `template`, asking `group` for each reference: a group number (`$1`, `${0}`) or a
 * name (`$word`). Undefined (no such group, or it did not take part) expands to ''.
 */
export function goExpand(template: string, group: (ref: number | string) => string | undefined): string {
  let out = '';
  let i = 0;
  for (;;) {
    const dollar = template.indexOf('$', i);
    if (dollar < 0) break;
    out += template.slice(i, dollar);
    i = dollar + 1;
    if (template[i] === '$') {
      out += '$';
      i++;
      continue;
    }
    const ref = extract(template, i);
    if (ref === undefined) {
      out += '$';
      continue;
    }
    i += ref.length;
    out += group(ref.num >= 0 ? ref.num : ref.name) ?? '';
  }
  return out + template.slice(i);
}

/** `goExpand` with the groups of a `RegExp.exec` result (numbered and named). */
export function goExpandMatch(template: string, match: RegExpExecArray): string {
  return goExpand(template, (ref) => (typeof ref === 'number' ? (ref < match.length ? match[ref] : undefined) : match.groups?.[ref]));
}
