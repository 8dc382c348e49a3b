/**
 * PromQL text helpers: a detector's query template narrowed to a scope (its evidence query), and the
 * label matchers of `match[]` selectors, which narrow a diagnosis to part of the fleet. Diagnose may
 * not import the PromQL parser (DESIGN.md), so the selector reader here is small: a metric name
 * and `{label op "value", ...}` with Prometheus' four operators and Go string quoting.
 */
import { QueryClientError } from '../query/index.js';
import type { Scope } from './types.js';

/**
 * Fills the `%` placeholders of a template with `scope` as equality matchers: `x{%}` becomes
 * `x{component="a"}` or `x`, and `x{status_class="429", %}` becomes `x{status_class="429", component="a"}`.
 */
export function scoped(template: string, scope: Scope = {}): string {
  const m = Object.entries(scope)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(', ');
  return template
    .replaceAll(', %}', m === '' ? '}' : `, ${m}}`)
    .replaceAll('{%}', m === '' ? '' : `{${m}}`);
}

/** One label matcher of a `match[]` selector. */
export interface LabelMatcher {
  readonly name: string;
  readonly op: '=' | '!=' | '=~' | '!~';
  readonly value: string;
}

const MATCHER = /^\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`)\s*(,|$)/;

/** The label matchers of one series selector (the metric name, if any, becomes a `__name__` matcher); throws `bad_data` for one that does not read. */
export function selectorMatchers(selector: string): LabelMatcher[] {
  const s = selector.trim();
  const head = /^([a-zA-Z_:][a-zA-Z0-9_:]*)?\s*(\{([\s\S]*)\})?$/.exec(s);
  if (head === null || (head[1] === undefined && head[2] === undefined)) throw badMatch(selector);
  const out: LabelMatcher[] = head[1] === undefined ? [] : [{ name: '__name__', op: '=', value: head[1] }];
  let rest = head[3] ?? '';
  while (rest.trim() !== '') {
    const m = MATCHER.exec(rest);
    if (m === null) throw badMatch(selector);
    const raw = m[3];
    const value = raw.startsWith('`') ? raw.slice(1, -1) : raw.startsWith("'") ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : (JSON.parse(raw) as string);
    out.push({ name: m[1], op: m[2] as LabelMatcher['op'], value });
    rest = rest.slice(m[0].length);
  }
  return out;
}

function badMatch(selector: string): QueryClientError {
  return new QueryClientError('bad_data', `invalid parameter "match[]": cannot read series selector ${JSON.stringify(selector)}`);
}

/**
 * Whether `labels` pass one selector's matchers. A matcher on a label the series lacks is skipped
 * (and `__name__` always is): the signals are aggregates whose labels differ (a GPU series has no
 * `component`), so `{component="a"}` narrows what has a component and keeps the rest of the fleet
 * structure, instead of dropping every GPU reading.
 */
export function labelsMatch(labels: Readonly<Record<string, string>>, matchers: readonly LabelMatcher[]): boolean {
  return matchers.every((m) => {
    if (m.name === '__name__') return true;
    const v = labels[m.name];
    if (v === undefined) return true;
    switch (m.op) {
      case '=':
        return v === m.value;
      case '!=':
        return v !== m.value;
      case '=~':
        return new RegExp(`^(?:${m.value})$`).test(v);
      case '!~':
        return !new RegExp(`^(?:${m.value})$`).test(v);
    }
  });
}
