import { isValidLabelName } from '../../config/index.js';
import type { Position } from '../types.js';
import type { RawGroup, RawRule } from './decode.js';
import type { RuleFileError } from './errors.js';

/**
 * What validation needs from outside `src/rules`: the PromQL parser and the template parser,
 * injected because rules may not import `src/promql` (and templates live in their own part).
 * `src/cli` and `src/server` wire the real ones.
 */
export interface RuleFilePorts {
  /** Parses a PromQL expression; returns Prometheus' error message (`1:5: parse error: ...`) or undefined when it is valid. */
  parseExpr(text: string): string | undefined;
  /**
   * Parses `text` as an alert's label or annotation template named `name` (`__alert_Foo`), with
   * `$labels`, `$value`, `$externalLabels` and `$externalURL` defined, as Prometheus'
   * `rulefmt.testTemplateParsing` does; returns Go's error (`template: __alert_Foo:1: function
   * "foo" not defined`) or undefined. It parses only: nothing is executed.
   */
  checkTemplate(name: string, text: string): string | undefined;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const NO_POSITION: Position = { line: 0, column: 0 };

/** Prometheus 2.42's `RuleNode.Validate`, in its order (labels and annotations in file order, where Go's map order is random). */
function validateRule(r: RawRule, ports: RuleFilePorts): { message: string; at: Position; position?: Position; positionAlt?: Position }[] {
  const out: { message: string; at: Position; position?: Position; positionAlt?: Position }[] = [];
  const record = r.record?.value ?? '';
  const alert = r.alert?.value ?? '';
  const recordAt = r.record?.at ?? NO_POSITION;
  if (record !== '' && alert !== '') {
    out.push({ message: "only one of 'record' and 'alert' must be set", at: recordAt, position: recordAt, positionAlt: r.alert?.at ?? NO_POSITION });
  }
  if (record === '' && alert === '') {
    out.push({ message: "one of 'record' or 'alert' must be set", at: r.record?.at ?? r.alert?.at ?? r.at, position: recordAt });
  }
  const expr = r.expr?.value ?? '';
  const exprAt = r.expr?.at ?? NO_POSITION;
  if (expr === '') out.push({ message: "field 'expr' must be set in rule", at: r.expr?.at ?? r.at, position: exprAt });
  else {
    const err = ports.parseExpr(expr);
    if (err !== undefined) out.push({ message: `could not parse expression: ${err}`, at: exprAt, position: exprAt });
  }
  if (record !== '') {
    const onRecord = (message: string): void => void out.push({ message, at: recordAt, position: recordAt });
    if (r.annotations.length > 0) onRecord("invalid field 'annotations' in recording rule");
    if (r.forMs !== 0) onRecord("invalid field 'for' in recording rule");
    if (r.keepFiringForMs !== 0) onRecord("invalid field 'keep_firing_for' in recording rule");
    if (!METRIC_NAME.test(record)) onRecord(`invalid recording rule name: ${record}`);
  }
  // promtool prints no position for these; `at` still points at the key.
  for (const l of r.labels) if (!isValidLabelName(l.key) || l.key === '__name__') out.push({ message: `invalid label name: ${l.key}`, at: l.at });
  for (const a of r.annotations) if (!isValidLabelName(a.key)) out.push({ message: `invalid annotation name: ${a.key}`, at: a.at });
  if (alert !== '') {
    const name = `__alert_${alert}`;
    for (const [kind, entries] of [['label', r.labels], ['annotation', r.annotations]] as const) {
      for (const e of entries) {
        const err = ports.checkTemplate(name, e.value);
        if (err !== undefined) out.push({ message: `${kind} ${JSON.stringify(e.key)}: ${err}`, at: e.at });
      }
    }
  }
  return out;
}

/**
 * Prometheus 2.42's `RuleGroups.Validate`: empty and repeated group names (at the position of the
 * `groups` item with the same index, as Go takes it), then every rule's errors. `positions` are
 * the second decoding pass's item positions.
 */
export function validateGroups(groups: readonly RawGroup[], positions: readonly Position[], ports: RuleFilePorts): RuleFileError[] {
  const errors: RuleFileError[] = [];
  const seen = new Set<string>();
  groups.forEach((g, j) => {
    const at = positions[j] ?? g.at;
    if (g.name === '') errors.push({ message: 'Groupname must not be empty', at, position: at });
    if (seen.has(g.name)) errors.push({ message: `groupname: "${g.name}" is repeated in the same file`, at, position: at });
    seen.add(g.name);
    g.rules.forEach((r, i) => {
      const ruleName = r.alert?.value !== undefined && r.alert.value !== '' ? r.alert.value : (r.record?.value ?? '');
      for (const e of validateRule(r, ports)) errors.push({ ...e, group: g.name, rule: i + 1, ruleName });
    });
  });
  return errors;
}
