/**
 * The `quality:` section of `--config.file` (docs/quality.md, "In the server and the demo"): the
 * sample store, the share of the gateway's samples evaluated, the stage-2 judge, the rubrics file,
 * redaction rules and retention. Read strictly (an unknown field is refused, as in the rest of the
 * file), and every error names the file, line and column so that a start with a broken file
 * exits with one line an editor can jump to.
 */
import path from 'node:path';
import { ConfigError, parseYamlDocument, type YamlNode } from '../config/index.js';
import type { DurationMs } from '../model/index.js';

/** The stage-2 judge's settings (`quality.judge`). */
export interface QualityJudgeConfig {
  /** An OpenAI-compatible endpoint's base URL (`…/v1`). */
  readonly baseURL: string;
  readonly model: string;
  /** A file holding the API key (read on every load; absolute, or relative to the configuration file). */
  readonly apiKeyFile: string | null;
  /** Share of the sampled pairs sent to the judge, in [0, 1]. */
  readonly share: number;
  readonly maxConcurrency: number;
  /** Judge tokens (input and output) per hour; past it, pairs get stage 1 only. */
  readonly tokenBudgetPerHour: number;
  readonly timeoutMs: DurationMs;
}

/** The whole `quality:` section with its defaults filled in. */
export interface QualityConfig {
  /** `pglite` (embedded; `dsn` a directory, `<data>/quality` when empty) or `postgres` (`dsn` a connection string). */
  readonly store: { readonly kind: 'pglite' | 'postgres'; readonly dsn: string };
  /** Share of the gateway's samples handed to the evaluation pipeline, in [0, 1]. */
  readonly sampling: number;
  /** Null: stage 1 only. */
  readonly judge: QualityJudgeConfig | null;
  /** A rubrics file (docs/quality.md) replacing the default rubrics; absolute, or relative to the configuration file. */
  readonly rubricsFile: string | null;
  /** Redaction rules (JavaScript regular expressions, applied globally) run before anything is stored. */
  readonly redact: readonly { readonly pattern: string; readonly replacement: string }[];
  /** Pairs older than `maxAgeMs` are deleted, then the oldest until the store is under `maxBytes` (0: no size limit). */
  readonly retention: { readonly maxAgeMs: DurationMs; readonly maxBytes: number };
}

/** The judge's defaults: a tenth of the pairs, 4 at a time, 200,000 tokens an hour, 10 s each. */
export const JUDGE_DEFAULTS = { share: 0.1, maxConcurrency: 4, tokenBudgetPerHour: 200_000, timeoutMs: 10_000 } as const;

/** What a server without a `quality:` section uses when quality is turned on (the demo): an embedded store, every sample, a week, 1 GiB. */
export const DEFAULT_QUALITY_CONFIG: QualityConfig = {
  store: { kind: 'pglite', dsn: '' },
  sampling: 1,
  judge: null,
  rubricsFile: null,
  redact: [],
  retention: { maxAgeMs: 7 * 24 * 3600_000, maxBytes: 1024 ** 3 },
};

const SIZE_UNITS: Readonly<Record<string, number>> = { '': 1, B: 1, KB: 1e3, MB: 1e6, GB: 1e9, KIB: 1024, MIB: 1024 ** 2, GIB: 1024 ** 3 };

/** The 1-based line and column of `offset` in `text`. */
function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** Reads one configuration text; `file` names it in errors and anchors relative paths. */
class SectionReader {
  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {}

  /** A `ConfigError` at `node`: `file:line:column: path: message`. */
  fail(node: YamlNode, message: string): never {
    const range = (node.node as { range?: [number, number, number] } | null)?.range;
    const { line, column } = range === undefined ? { line: node.line, column: 1 } : position(this.text, range[0]);
    // Paths under the root's free-form entries start with a dot (`.quality.sampling`).
    const at = node.path.replace(/^\./, '');
    throw new ConfigError(`${this.file}:${line}:${column}: ${at === '' ? '' : `${at}: `}${message}`);
  }

  /**
   * Runs one of `YamlNode`'s getters on `node`, turning its `line N: …` error into this file's
   * `file:line:column: …`: at `node` when it is on that line, else at the line's first non-blank
   * character (the key yaml-reader refused; its message says no more).
   */
  read<T>(fn: () => T, node?: YamlNode): T {
    try {
      return fn();
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      const m = /^line (\d+): ([\s\S]*)$/.exec(e.message);
      if (m === null) throw new ConfigError(`${this.file}: ${e.message}`);
      const line = Number(m[1]);
      const rest = m[2].replace(/^\./, '');
      if (node !== undefined && node.line === line) {
        const range = (node.node as { range?: [number, number, number] } | null)?.range;
        if (range !== undefined) throw new ConfigError(`${this.file}:${line}:${position(this.text, range[0]).column}: ${rest}`);
      }
      const column = (/^\s*/.exec(this.text.split('\n')[line - 1] ?? '')?.[0].length ?? 0) + 1;
      throw new ConfigError(`${this.file}:${line}:${column}: ${rest}`);
    }
  }

  struct(node: YamlNode, type: string, fields: readonly string[]): Partial<Record<string, YamlNode>> {
    return this.read(() => node.struct(type, fields));
  }

  share(node: YamlNode | undefined, fallback: number): number {
    if (node === undefined || node.isNull()) return fallback;
    const v = Number(this.read(() => node.string()));
    if (!(v >= 0 && v <= 1)) this.fail(node, `want a share between 0 and 1, got ${JSON.stringify(this.read(() => node.string()))}`);
    return v;
  }

  positiveInt(node: YamlNode | undefined, fallback: number): number {
    if (node === undefined || node.isNull()) return fallback;
    const v = this.read(() => node.uint(), node);
    if (v === 0) this.fail(node, 'want a positive integer, got 0');
    return v;
  }

  nonEmpty(node: YamlNode | undefined, what: string, parent: YamlNode): string {
    const v = node === undefined ? '' : this.read(() => node.string());
    if (v === '') this.fail(node ?? parent, `${what} must be set`);
    return v;
  }

  size(node: YamlNode | undefined, fallback: number): number {
    if (node === undefined || node.isNull()) return fallback;
    const text = this.read(() => node.string());
    const m = /^(\d+(?:\.\d+)?)\s*([A-Za-z]*)$/.exec(text.trim());
    const unit = m === null ? undefined : SIZE_UNITS[m[2].toUpperCase()];
    if (m === null || unit === undefined) this.fail(node, `invalid size ${JSON.stringify(text)}: want a number with B, KB, MB, GB, KiB, MiB or GiB`);
    return Math.floor(Number(m[1]) * unit);
  }

  /** A path as written, resolved against the configuration file's directory. */
  filePath(node: YamlNode | undefined): string | null {
    const v = node === undefined ? '' : this.read(() => node.string());
    return v === '' ? null : path.resolve(path.dirname(path.resolve(this.file)), v);
  }
}

function readJudge(r: SectionReader, node: YamlNode): QualityJudgeConfig {
  const f = r.struct(node, 'quality.JudgeConfig', ['base_url', 'model', 'api_key_file', 'share', 'max_concurrency', 'token_budget_per_hour', 'timeout']);
  const baseURL = r.nonEmpty(f.base_url, 'base_url', node);
  try {
    const u = new URL(baseURL);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
  } catch {
    r.fail(f.base_url ?? node, `base_url ${JSON.stringify(baseURL)} is not an http(s) URL`);
  }
  const timeoutMs = f.timeout === undefined || f.timeout.isNull() ? JUDGE_DEFAULTS.timeoutMs : r.read(() => (f.timeout as YamlNode).duration(), f.timeout);
  if (timeoutMs <= 0) r.fail(f.timeout ?? node, 'timeout must be positive');
  return {
    baseURL,
    model: r.nonEmpty(f.model, 'model', node),
    apiKeyFile: r.filePath(f.api_key_file),
    share: r.share(f.share, JUDGE_DEFAULTS.share),
    maxConcurrency: r.positiveInt(f.max_concurrency, JUDGE_DEFAULTS.maxConcurrency),
    tokenBudgetPerHour: f.token_budget_per_hour === undefined || f.token_budget_per_hour.isNull() ? JUDGE_DEFAULTS.tokenBudgetPerHour : r.read(() => (f.token_budget_per_hour as YamlNode).uint(), f.token_budget_per_hour),
    timeoutMs,
  };
}

function readRedact(r: SectionReader, node: YamlNode | undefined): QualityConfig['redact'] {
  if (node === undefined) return [];
  return r.read(() => node.list()).map((rule) => {
    const f = r.struct(rule, 'quality.RedactRule', ['pattern', 'replacement']);
    const pattern = r.nonEmpty(f.pattern, 'pattern', rule);
    try {
      new RegExp(pattern, 'gu');
    } catch (e) {
      r.fail(f.pattern ?? rule, `invalid pattern: ${(e as Error).message}`);
    }
    return { pattern, replacement: f.replacement === undefined ? '[REDACTED]' : r.read(() => (f.replacement as YamlNode).string()) };
  });
}

/**
 * The `quality:` section of a configuration file's text, or null when it has none. Throws a
 * `ConfigError` whose message starts `file:line:column:`.
 */
export function parseQualityConfig(text: string, file: string): QualityConfig | null {
  const r: SectionReader = new SectionReader(text, file);
  const root = r.read(() => parseYamlDocument(text));
  if (root.isNull()) return null;
  const q = r.read(() => root.entries()).find(([k]) => k === 'quality')?.[1];
  if (q === undefined || q.isNull()) return null;
  const f = r.struct(q, 'quality.Config', ['store', 'sampling', 'judge', 'rubrics_file', 'redact', 'retention']);
  const d = DEFAULT_QUALITY_CONFIG;
  let store: QualityConfig['store'] = d.store;
  if (f.store !== undefined && !f.store.isNull()) {
    const s = r.struct(f.store, 'quality.StoreConfig', ['kind', 'dsn']);
    const kind = s.kind === undefined ? 'pglite' : r.read(() => (s.kind as YamlNode).string());
    if (kind !== 'pglite' && kind !== 'postgres') r.fail(s.kind ?? f.store, `unknown store kind ${JSON.stringify(kind)}; want pglite or postgres`);
    const dsn = s.dsn === undefined ? '' : r.read(() => (s.dsn as YamlNode).string());
    if (kind === 'postgres' && dsn === '') r.fail(f.store, 'a postgres store needs dsn (a connection string)');
    store = kind === 'postgres' ? { kind, dsn } : { kind, dsn: dsn === '' ? '' : (r.filePath(s.dsn) ?? dsn) };
  }
  let retention = d.retention;
  if (f.retention !== undefined && !f.retention.isNull()) {
    const t = r.struct(f.retention, 'quality.RetentionConfig', ['max_age', 'max_size']);
    const maxAgeMs = t.max_age === undefined || t.max_age.isNull() ? d.retention.maxAgeMs : r.read(() => (t.max_age as YamlNode).duration(), t.max_age);
    if (maxAgeMs <= 0) r.fail(t.max_age ?? f.retention, 'max_age must be positive');
    retention = { maxAgeMs, maxBytes: r.size(t.max_size, d.retention.maxBytes) };
  }
  return {
    store,
    sampling: r.share(f.sampling, d.sampling),
    judge: f.judge === undefined || f.judge.isNull() ? null : readJudge(r, f.judge),
    rubricsFile: r.filePath(f.rubrics_file),
    redact: readRedact(r, f.redact),
    retention,
  };
}
