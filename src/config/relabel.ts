import { createHash } from 'node:crypto';
import { Labels, compileRe2, goExpandMatch, type Re2Regexp } from '../model/index.js';
import type { YamlNode } from './yaml-reader.js';

/** The relabel actions Prometheus 2.42 knows. */
export type RelabelAction =
  | 'replace'
  | 'keep'
  | 'drop'
  | 'keepequal'
  | 'dropequal'
  | 'hashmod'
  | 'labelmap'
  | 'labeldrop'
  | 'labelkeep'
  | 'lowercase'
  | 'uppercase';

const ACTIONS: readonly RelabelAction[] = ['replace', 'keep', 'drop', 'keepequal', 'dropequal', 'hashmod', 'labelmap', 'labeldrop', 'labelkeep', 'lowercase', 'uppercase'];

/** One `relabel_configs` / `metric_relabel_configs` entry, defaults applied and validated. */
export interface RelabelConfig {
  readonly sourceLabels: readonly string[];
  readonly separator: string;
  /** The regex as written (Prometheus anchors it: `^(?:regex)$`). */
  readonly regex: string;
  readonly modulus: number;
  readonly targetLabel: string;
  readonly replacement: string;
  readonly action: RelabelAction;
  /** The anchored, compiled regex (RE2; `.` does not match a newline, as in Go without `(?s)`). */
  readonly compiled: Re2Regexp;
}

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
/** Prometheus' `relabelTarget`: a label name that may contain `$1` / `${name}` references. */
const RELABEL_TARGET = /^(?:(?:[a-zA-Z_]|\$(?:\{\w+\}|\w+))+\w*)+$/;

/** Reports whether `name` is a valid Prometheus label name. */
export function isValidLabelName(name: string): boolean {
  return LABEL_NAME.test(name);
}

/** Compiles a relabel regex as Prometheus does (`^(?:re)$`, no dot-all). Throws `Re2SyntaxError`. */
export function compileRelabelRegex(re: string): Re2Regexp {
  return compileRe2(re, { anchored: true, dotAll: false });
}

/** Which optional fields a config set explicitly, for the checks that forbid them. */
interface Given {
  sourceLabels: boolean;
  separator: boolean;
  regex: boolean;
  modulus: boolean;
  targetLabel: boolean;
  replacement: boolean;
}

/** Prometheus' `relabel.Config.Validate`, with its messages. Throws an `Error`. */
export function validateRelabelConfig(c: RelabelConfig, given: Partial<Given> = {}): void {
  const a = c.action;
  if (c.modulus === 0 && a === 'hashmod') throw new Error('relabel configuration for hashmod requires non-zero modulus');
  const needsTarget = a === 'replace' || a === 'hashmod' || a === 'lowercase' || a === 'uppercase' || a === 'keepequal' || a === 'dropequal';
  if (needsTarget && c.targetLabel === '') throw new Error(`relabel configuration for ${a} action requires 'target_label' value`);
  const invalidTarget = new Error(`${JSON.stringify(c.targetLabel)} is invalid 'target_label' for ${a} action`);
  if (a === 'replace' && !(c.targetLabel.includes('$') ? RELABEL_TARGET : LABEL_NAME).test(c.targetLabel)) throw invalidTarget;
  const plainTarget = a === 'lowercase' || a === 'uppercase' || a === 'keepequal' || a === 'dropequal';
  if (plainTarget && !LABEL_NAME.test(c.targetLabel)) throw invalidTarget;
  if (plainTarget && c.replacement !== '$1') throw new Error(`'replacement' can not be set for ${a} action`);
  if (a === 'labelmap' && !RELABEL_TARGET.test(c.replacement)) throw new Error(`${JSON.stringify(c.replacement)} is invalid 'replacement' for ${a} action`);
  if (a === 'hashmod' && !LABEL_NAME.test(c.targetLabel)) throw invalidTarget;
  if ((a === 'keepequal' || a === 'dropequal') && (given.regex === true || c.modulus !== 0 || c.separator !== ';' || c.replacement !== '$1')) {
    throw new Error(`${a} action requires only 'source_labels' and \`target_label\`, and no other fields`);
  }
  if ((a === 'labeldrop' || a === 'labelkeep') && (given.sourceLabels === true || c.targetLabel !== '' || c.modulus !== 0 || c.separator !== ';' || c.replacement !== '$1')) {
    throw new Error(`${a} action requires only 'regex', and no other fields`);
  }
}

/** Builds a relabel config from plain fields (defaults as Prometheus), validating it. For tests and code. */
export function relabelConfig(fields: Partial<Omit<RelabelConfig, 'compiled'>>): RelabelConfig {
  const regex = fields.regex ?? '(.*)';
  const c: RelabelConfig = {
    sourceLabels: fields.sourceLabels ?? [],
    separator: fields.separator ?? ';',
    regex,
    modulus: fields.modulus ?? 0,
    targetLabel: fields.targetLabel ?? '',
    replacement: fields.replacement ?? '$1',
    action: fields.action ?? 'replace',
    compiled: compileRelabelRegex(regex),
  };
  validateRelabelConfig(c, { regex: fields.regex !== undefined, sourceLabels: fields.sourceLabels !== undefined });
  return c;
}

const RELABEL_FIELDS = ['source_labels', 'separator', 'regex', 'modulus', 'target_label', 'replacement', 'action'];

/** Reads a `relabel_configs` list from YAML; errors name the line and the entry. */
export function parseRelabelConfigs(node: YamlNode): RelabelConfig[] {
  return node.list().map((item) => {
    if (item.isNull()) item.fail('empty or null relabeling rule');
    const f = item.struct('relabel.Config', RELABEL_FIELDS);
    const sourceLabels = f.source_labels?.list().map((n) => {
      const name = n.string();
      if (!LABEL_NAME.test(name)) n.fail(`${JSON.stringify(name)} is not a valid label name`);
      return name;
    });
    const actionText = f.action?.string() ?? 'replace';
    const action = actionText.toLowerCase() as RelabelAction;
    if (!ACTIONS.includes(action)) (f.action ?? item).fail(`unknown relabel action ${JSON.stringify(actionText)}`);
    const regex = f.regex === undefined ? '(.*)' : f.regex.string();
    const regexNode: YamlNode = f.regex ?? item;
    let compiled: Re2Regexp;
    try {
      compiled = compileRelabelRegex(regex);
    } catch (e) {
      regexNode.fail((e as Error).message);
    }
    const c: RelabelConfig = {
      sourceLabels: sourceLabels ?? [],
      separator: f.separator?.string() ?? ';',
      regex,
      modulus: f.modulus?.uint() ?? 0,
      targetLabel: f.target_label?.string() ?? '',
      replacement: f.replacement?.string() ?? '$1',
      action,
      compiled,
    };
    try {
      validateRelabelConfig(c, { regex: f.regex !== undefined, sourceLabels: f.source_labels !== undefined });
    } catch (e) {
      item.fail((e as Error).message);
    }
    return c;
  });
}

/** A mutable label set for relabeling: setting '' deletes, as in Prometheus' `labels.Builder`. */
export class LabelsBuilder {
  private readonly m = new Map<string, string>();

  constructor(from?: Labels) {
    from?.forEach((n, v) => this.m.set(n, v));
  }

  /** The value of `name`, or '' when absent. */
  get(name: string): string {
    return this.m.get(name) ?? '';
  }

  /** Sets `name` (deletes it when `value` is ''). */
  set(name: string, value: string): void {
    if (value === '') this.m.delete(name);
    else this.m.set(name, value);
  }

  /** Deletes `name`. */
  del(name: string): void {
    this.m.delete(name);
  }

  /** A snapshot of the current labels as `[name, value]` pairs (safe to mutate the builder while iterating). */
  entries(): [string, string][] {
    return [...this.m];
  }

  /** The current labels. */
  labels(): Labels {
    const flat: string[] = [];
    for (const [n, v] of this.m) flat.push(n, v);
    return Labels.fromPairs(flat);
  }
}

/** Prometheus' hashmod: md5 of `value`, its last 8 bytes as a big-endian uint64, modulo `modulus`. */
export function hashMod(value: string, modulus: number): string {
  const digest = createHash('md5').update(value, 'utf8').digest();
  return (digest.readBigUInt64BE(8) % BigInt(modulus)).toString();
}

function relabelStep(c: RelabelConfig, lb: LabelsBuilder): boolean {
  const val = c.sourceLabels.map((n) => lb.get(n)).join(c.separator);
  const re = c.compiled;
  switch (c.action) {
    case 'drop':
      return !re.test(val);
    case 'keep':
      return re.test(val);
    case 'dropequal':
      return lb.get(c.targetLabel) !== val;
    case 'keepequal':
      return lb.get(c.targetLabel) === val;
    case 'replace': {
      const m = re.exec(val);
      if (m === null) return true;
      const target = goExpandMatch(c.targetLabel, m);
      if (!LABEL_NAME.test(target)) return true;
      lb.set(target, goExpandMatch(c.replacement, m));
      return true;
    }
    case 'lowercase':
      lb.set(c.targetLabel, val.toLowerCase());
      return true;
    case 'uppercase':
      lb.set(c.targetLabel, val.toUpperCase());
      return true;
    case 'hashmod':
      lb.set(c.targetLabel, hashMod(val, c.modulus));
      return true;
    case 'labelmap':
      for (const [name, value] of lb.entries()) {
        const m = re.exec(name);
        if (m !== null) lb.set(goExpandMatch(c.replacement, m), value);
      }
      return true;
    case 'labeldrop':
      for (const [name] of lb.entries()) if (re.test(name)) lb.del(name);
      return true;
    case 'labelkeep':
      for (const [name] of lb.entries()) if (!re.test(name)) lb.del(name);
      return true;
  }
}

/** Applies `cfgs` in order to `lb`; false when a step dropped the label set (Prometheus' `ProcessBuilder`). */
export function relabelBuilder(lb: LabelsBuilder, cfgs: readonly RelabelConfig[]): boolean {
  for (const c of cfgs) if (!relabelStep(c, lb)) return false;
  return true;
}

/** Relabels `labels`; null when dropped (Prometheus' `relabel.Process`). */
export function relabel(labels: Labels, cfgs: readonly RelabelConfig[]): Labels | null {
  if (cfgs.length === 0) return labels;
  const lb = new LabelsBuilder(labels);
  return relabelBuilder(lb, cfgs) ? lb.labels() : null;
}
