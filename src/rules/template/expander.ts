/**
 * The `TemplateExpander` of alert labels and annotations, as Prometheus 2.42's
 * `rules/alerting.go` and `template.Expander.Expand` do it: the `$labels`, `$externalLabels`,
 * `$externalURL` and `$value` definitions are prepended to the text (so column numbers in
 * messages count them, as Prometheus' do), the data is the `AlertTemplateData` struct, and any
 * failure becomes `<error expanding template: ...>`.
 */
import { systemClock, type Clock, type DurationMs, type UnixMs } from '../../model/index.js';
import type { QueryClient } from '../../query/index.js';
import type { TemplateData, TemplateExpander } from '../types.js';
import { BUILTINS } from './builtins.js';
import { TemplateExecError, executeTemplate, type GoFunc } from './exec.js';
import { TemplateParseError, parseTemplates } from './parse.js';
import { PROM_FUNCTION_NAMES, promFuncs } from './prom-funcs.js';
import { GoMap, GoStruct, type GoValue } from './values.js';

/** Prometheus' convenience variables, prepended to every alert template. */
export const ALERT_TEMPLATE_DEFS = '{{$labels := .Labels}}{{$externalLabels := .ExternalLabels}}{{$externalURL := .ExternalURL}}{{$value := .Value}}';

const DATA_TYPE = 'struct { Labels map[string]string; ExternalLabels map[string]string; ExternalURL string; Value float64 }';

/** Every function name a template may call (the parser rejects others, as Go's does). */
export const TEMPLATE_FUNCTION_NAMES: ReadonlySet<string> = new Set([...BUILTINS.keys(), ...PROM_FUNCTION_NAMES]);

/** How much one expansion may do before it fails. */
export interface TemplateLimits {
  /** The most output, in UTF-16 units (default 64 KiB). */
  readonly maxOutputBytes?: number;
  /** The most nodes walked plus range iterations (default 100,000). */
  readonly maxSteps?: number;
  /** Wall time for one expansion, queries included (default 10 s). */
  readonly timeoutMs?: DurationMs;
}

/** What `createTemplateExpander` takes. */
export interface TemplateExpanderOptions {
  /** Where the `query` function sends its instant queries. */
  readonly queryClient: QueryClient;
  /** `--web.external-url`: what `externalURL` and `pathPrefix` return. */
  readonly externalURL?: string;
  readonly limits?: TemplateLimits;
  /** The clock the deadline is measured on. */
  readonly now?: Clock;
}

/**
 * Returns the parse error of an alert label or annotation template, worded as promtool prints
 * it (`template: __alert_X:1: unexpected "}" in operand`), or undefined when it parses. `name`
 * is the template's name (`__alert_` + the alert's name); the convenience definitions are
 * prepended as Prometheus does.
 */
export function checkTemplate(name: string, text: string): string | undefined {
  try {
    parseTemplates(name, ALERT_TEMPLATE_DEFS + text, TEMPLATE_FUNCTION_NAMES);
    return undefined;
  } catch (e) {
    if (e instanceof TemplateParseError) return e.message;
    throw e;
  }
}

/** The `AlertTemplateData` struct of Prometheus. */
export function alertTemplateData(d: TemplateData): GoValue {
  return new GoStruct(
    DATA_TYPE,
    new Map<string, GoValue>([
      ['Labels', GoMap.ofStrings(d.labels)],
      ['ExternalLabels', GoMap.ofStrings(d.externalLabels)],
      ['ExternalURL', d.externalURL],
      ['Value', d.value],
    ]),
    false,
  );
}

/** Builds the expander the evaluator renders alert labels and annotations with. */
export function createTemplateExpander(o: TemplateExpanderOptions): TemplateExpander {
  const now = o.now ?? systemClock;
  const maxOutputBytes = o.limits?.maxOutputBytes ?? 64 * 1024;
  const maxSteps = o.limits?.maxSteps ?? 100_000;
  const timeoutMs = o.limits?.timeoutMs ?? 10_000;
  const externalURL = o.externalURL;
  return {
    async expand(name: string, text: string, data: TemplateData, evalTimeMs: UnixMs): Promise<string> {
      const full = ALERT_TEMPLATE_DEFS + text;
      let trees;
      try {
        trees = parseTemplates(name, full, TEMPLATE_FUNCTION_NAMES);
      } catch (e) {
        if (e instanceof TemplateParseError) return `<error expanding template: error parsing template ${name}: ${e.message}>`;
        return `<error expanding template: panic expanding template ${name}: ${String(e)}>`;
      }
      const deadlineMs = now() + timeoutMs;
      const funcs = new Map<string, GoFunc>([...BUILTINS, ...promFuncs({ queryClient: o.queryClient, evalTimeMs, externalURL, remainingMs: () => deadlineMs - now() })]);
      try {
        return await executeTemplate(name, full, trees, funcs, alertTemplateData(data), { maxOutputBytes, maxSteps, deadlineMs, now });
      } catch (e) {
        if (e instanceof TemplateExecError) return `<error expanding template: error executing template ${name}: ${e.message}>`;
        return `<error expanding template: panic expanding template ${name}: ${e instanceof Error ? e.message : String(e)}>`;
      }
    },
  };
}
