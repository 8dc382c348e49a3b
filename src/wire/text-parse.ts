import { parseFloatToken, parseIntMsToken, parseSecondsAsMsToken, type Fail } from './text-parse-number.js';
import { Labels, METRIC_NAME_LABEL } from '../model/index.js';
import { checkExposedLabel, labelValueTooLong, type ExpositionLimits } from './text-parse-limits.js';

export { ExpositionLimitError, type ExpositionLimits } from './text-parse-limits.js';

/** The two text formats the parser reads, as negotiated by `formatFromContentType`. */
export type ExpositionFormat = 'prometheus-0.0.4' | 'openmetrics-1.0';

/** Metric family types: 0.0.4 knows the first five (with `untyped`), OpenMetrics all but `untyped`. */
export type FamilyType =
  | 'counter'
  | 'gauge'
  | 'histogram'
  | 'summary'
  | 'untyped'
  | 'unknown'
  | 'info'
  | 'stateset'
  | 'gaugehistogram';

/** An OpenMetrics exemplar attached to a counter `_total` or a histogram `_bucket` sample. */
export interface ParsedExemplar {
  labels: Labels;
  value: number;
  timestampMs?: number;
}

/** One sample line: its full name (suffix included), labels with `__name__`, value and optional timestamp. */
export interface ParsedSample {
  name: string;
  labels: Labels;
  value: number;
  timestampMs?: number;
  exemplar?: ParsedExemplar;
}

/** A metric family's metadata, from its `# HELP`, `# TYPE` and (OpenMetrics) `# UNIT` lines. */
export interface ParsedFamily {
  name: string;
  type: FamilyType;
  help?: string;
  unit?: string;
}

/** A malformed exposition: `line` and `column` are 1-based; columns count UTF-16 code units. */
export class ExpositionParseError extends Error {
  /** Creates the error; the message is `line L, column C: detail`. */
  constructor(
    readonly line: number,
    readonly column: number,
    readonly detail: string,
  ) {
    super(`line ${line}, column ${column}: ${detail}`);
    this.name = 'ExpositionParseError';
  }
}

/**
 * Picks the parser for a scrape response's Content-Type as Prometheus does: the media type
 * `application/openmetrics-text` (any version, any case, any parameters) is OpenMetrics 1.0;
 * everything else, a missing header included, is text format 0.0.4.
 */
export function formatFromContentType(contentType: string | undefined): ExpositionFormat {
  if (contentType === undefined) return 'prometheus-0.0.4';
  const semi = contentType.indexOf(';');
  const mediaType = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return mediaType === 'application/openmetrics-text' ? 'openmetrics-1.0' : 'prometheus-0.0.4';
}

/**
 * Parses a whole exposition in one pass and calls `onSample` for every sample line, in input
 * order, with the family the sample belongs to (`undefined` in 0.0.4 when no `# HELP`/`# TYPE`
 * names it; OpenMetrics gives metadata-less samples an implicit `unknown` family).
 *
 * Streaming: when a line is malformed the parser throws `ExpositionParseError` (or
 * `ExpositionLimitError` for a line over `limits`), and the samples of every earlier line have
 * already been passed to `onSample` (nothing of the failing line is). Callers that need
 * all-or-nothing stage samples (an appender) and roll back on error. `onSample` may keep the
 * sample, its labels and the family; the parser never mutates a sample. In 0.0.4 a later
 * `# HELP`/`# TYPE` for a name updates that family object in place. `onSample` may throw to stop
 * the parse (a sample limit).
 *
 * The text must already be decoded; decode bytes with `new TextDecoder('utf-8', { fatal: true })`
 * so that invalid UTF-8 is rejected instead of becoming U+FFFD. Returns the number of samples and
 * the families in order of first appearance. For a body that arrives in pieces, use
 * `ExpositionParser`, which gives the same result.
 */
export function parseExposition(
  text: string,
  format: ExpositionFormat,
  onSample: (s: ParsedSample, family: ParsedFamily | undefined) => void,
  limits: ExpositionLimits = {},
): { samples: number; families: ParsedFamily[] } {
  const p = new ExpositionParser(format, onSample, limits);
  p.push(text);
  return p.end();
}

/**
 * The incremental form of `parseExposition`: `push` decoded text in pieces of any size (split
 * anywhere, even inside a line or a surrogate pair), then `end` once. Complete lines are parsed
 * as soon as their `\n` arrives, so memory is bounded by the longest line rather than the body,
 * and work is linear in the input. Errors are thrown from the `push` (or `end`) that completes
 * the offending line; after an error the parser must be dropped.
 */
export class ExpositionParser {
  private readonly parser: TextParser;
  /** The start of a line whose `\n` has not arrived yet, in pieces (joined once, when it does). */
  private pending: string[] = [];

  /** Starts a parse; see `parseExposition` for `onSample` and `limits`. */
  constructor(
    format: ExpositionFormat,
    onSample: (s: ParsedSample, family: ParsedFamily | undefined) => void,
    limits: ExpositionLimits = {},
  ) {
    this.parser = new TextParser(format === 'openmetrics-1.0', onSample, limits);
  }

  /** Parses every line `text` completes and keeps the rest for the next call. */
  push(text: string): void {
    const nl = text.lastIndexOf('\n');
    if (nl < 0) {
      if (text !== '') this.pending.push(text);
      return;
    }
    let block = nl === text.length - 1 ? text : text.slice(0, nl + 1);
    if (this.pending.length > 0) {
      this.pending.push(block);
      block = this.pending.join('');
      this.pending = [];
    }
    if (nl + 1 < text.length) this.pending.push(text.slice(nl + 1));
    this.parser.block(block);
  }

  /** Parses the last line (0.0.4 allows it without `\n`) and checks the end of input. */
  end(): { samples: number; families: ParsedFamily[] } {
    const p = this.parser;
    if (this.pending.length > 0) p.block(this.pending.join(''));
    this.pending = [];
    p.finish();
    return { samples: p.sampleCount, families: p.families };
  }
}

const LF = 10;
const CR = 13;
const TAB = 9;
const SP = 32;
const QUOTE = 34;
const HASH = 35;
const COMMA = 44;
const EQ = 61;
const BSLASH = 92;
const LBRACE = 123;
const RBRACE = 125;

/** Sample-name suffixes, by index; bit `1 << i` in `ALLOWED` permits suffix i (0 = the bare name). */
const SUFFIXES = ['', '_total', '_created', '_bucket', '_sum', '_count', '_gsum', '_gcount', '_info'];
const EXACT = 1;
const TOTAL = 1 << 1;
const CREATED = 1 << 2;
const BUCKET = 1 << 3;
const SUM = 1 << 4;
const COUNT = 1 << 5;

/** Which sample names belong to a family of each type (bare counters only in 0.0.4: see `allowed`). */
const ALLOWED: Record<FamilyType, number> = {
  counter: EXACT | TOTAL | CREATED,
  gauge: EXACT,
  histogram: BUCKET | SUM | COUNT | CREATED,
  gaugehistogram: BUCKET | (1 << 6) | (1 << 7),
  summary: EXACT | SUM | COUNT | CREATED,
  info: 1 << 8,
  stateset: EXACT,
  untyped: EXACT,
  unknown: EXACT,
};

const PROM_TYPES: readonly FamilyType[] = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];
const OM_TYPES: readonly FamilyType[] = [
  'counter',
  'gauge',
  'histogram',
  'gaugehistogram',
  'summary',
  'info',
  'stateset',
  'unknown',
];

/** Exact powers of ten for the float fast path (10^22 is the largest exact double power of ten). */
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isLabelStart = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isLabelChar = (c: number): boolean => isLabelStart(c) || isDigit(c);
const isNameStart = (c: number): boolean => isLabelStart(c) || c === 58;
const isNameChar = (c: number): boolean => isLabelChar(c) || c === 58;

const META_HELP = 1;
const META_TYPE = 2;
const META_UNIT = 4;

/**
 * One parse: a cursor over the current block of whole lines plus the family table, which lasts
 * across blocks. Not reused across inputs.
 */
class TextParser {
  sampleCount = 0;
  readonly families: ParsedFamily[] = [];
  private readonly byName = new Map<string, ParsedFamily>();
  private text = '';
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private end = 0;
  private sawEof = false;
  /** OpenMetrics: the family being read. 0.0.4: the family last matched (a look-up cache). */
  private current: ParsedFamily | undefined;
  private currentHasSamples = false;
  private currentMeta = 0;
  /** Index into SUFFIXES of the last sample's suffix relative to its family. */
  private suffix = 0;
  // Reused buffers and interning caches: repeated names and values are compared in place
  // instead of sliced, so steady-state parsing allocates little beyond samples and Labels.
  private prevName = '';
  private readonly nameCache: string[] = [];
  private readonly valueCache: string[] = [];
  private readonly scratch: string[] = [];
  private readonly scratchAt: number[] = [];

  private readonly limits: Required<ExpositionLimits>;

  constructor(
    private readonly om: boolean,
    private readonly onSample: (s: ParsedSample, family: ParsedFamily | undefined) => void,
    limits: ExpositionLimits,
  ) {
    this.limits = { labelLimit: limits.labelLimit ?? 0, labelNameLengthLimit: limits.labelNameLengthLimit ?? 0, labelValueLengthLimit: limits.labelValueLengthLimit ?? 0 };
  }

  /** Parses `text`, which holds whole lines only (the last may lack its `\n` at the end of input). */
  block(text: string): void {
    const t = text;
    this.text = text;
    this.end = text.length;
    this.pos = 0;
    this.lineStart = 0;
    while (this.pos < this.end) {
      if (this.sawEof) this.fail("unexpected content after '# EOF'");
      if (!this.om) this.skipBlanks();
      if (this.pos >= this.end) break;
      const c = t.charCodeAt(this.pos);
      if (c === LF) {
        if (this.om) this.fail('unexpected blank line (OpenMetrics allows none)');
        this.newLine();
        continue;
      }
      if (c === HASH) this.sawEof = this.comment();
      else this.sampleLine();
      this.endOfLine();
    }
  }

  /** Checks the end of input: OpenMetrics must have ended with `# EOF`. */
  finish(): void {
    this.pos = this.end;
    if (this.om && !this.sawEof) this.fail("expected '# EOF' as the last line of an OpenMetrics exposition");
  }

  // ---- cursor helpers ----

  private fail(detail: string, at = this.pos): never {
    throw new ExpositionParseError(this.line, at - this.lineStart + 1, detail);
  }

  private describe(at: number): string {
    if (at >= this.end) return 'end of input';
    const c = this.text.charCodeAt(at);
    if (c === LF) return 'end of line';
    if (c === CR) return 'carriage return (lines must end in \\n alone)';
    return JSON.stringify(String.fromCharCode(c));
  }

  private skipBlanks(): void {
    const t = this.text;
    let p = this.pos;
    while (p < this.end) {
      const c = t.charCodeAt(p);
      if (c !== SP && c !== TAB) break;
      p++;
    }
    this.pos = p;
  }

  private newLine(): void {
    this.pos++;
    this.line++;
    this.lineStart = this.pos;
  }

  /** Expects the end of the current line (after blanks in 0.0.4) and steps over its `\n`. */
  private endOfLine(): void {
    if (!this.om) this.skipBlanks();
    if (this.pos >= this.end) return; // 0.0.4 tolerates a missing final newline; OM then lacks '# EOF'
    if (this.text.charCodeAt(this.pos) !== LF) this.fail(`expected end of line, got ${this.describe(this.pos)}`);
    this.newLine();
  }

  /** The end of the current line: the index of its `\n`, or the end of the input. */
  private lineEnd(from: number): number {
    const i = this.text.indexOf('\n', from);
    return i < 0 ? this.end : i;
  }

  // ---- comments and metadata ----

  /** Reads a comment line from its '#'; returns true for OpenMetrics' '# EOF'. */
  private comment(): boolean {
    const t = this.text;
    let p = this.pos + 1;
    if (this.om) {
      if (t.charCodeAt(p) !== SP) this.fail(`expected ' ' after '#', got ${this.describe(p)}`, p);
      p++;
      let kw = 0;
      if (t.startsWith('EOF', p)) {
        this.pos = p + 3;
        return true;
      }
      if (t.startsWith('HELP', p)) kw = META_HELP;
      else if (t.startsWith('TYPE', p)) kw = META_TYPE;
      else if (t.startsWith('UNIT', p)) kw = META_UNIT;
      else this.fail('expected HELP, TYPE, UNIT or EOF after \'# \' (OpenMetrics has no free comments)', p);
      p += 4;
      if (t.charCodeAt(p) !== SP) this.fail(`expected ' ' after ${metaWord(kw)}, got ${this.describe(p)}`, p);
      this.pos = p + 1;
      this.metadata(kw);
      return false;
    }
    // 0.0.4: '# HELP ' and '# TYPE ' (blanks are spaces or tabs) are metadata; any other comment is skipped.
    const c = t.charCodeAt(p);
    let kw = 0;
    if (c === SP || c === TAB) {
      this.pos = p;
      this.skipBlanks();
      p = this.pos;
      if (t.startsWith('HELP', p)) kw = META_HELP;
      else if (t.startsWith('TYPE', p)) kw = META_TYPE;
      const after = t.charCodeAt(p + 4);
      if (kw !== 0 && (after === SP || after === TAB)) {
        this.pos = p + 4;
        this.skipBlanks();
        this.metadata(kw);
        return false;
      }
    }
    this.pos = this.lineEnd(p);
    return false;
  }

  /** Reads `name [text]` after HELP/TYPE/UNIT and records it on the family. */
  private metadata(kw: number): void {
    const t = this.text;
    const nameAt = this.pos;
    if (!isNameStart(t.charCodeAt(nameAt))) {
      this.fail(`expected metric name after ${metaWord(kw)}, got ${this.describe(nameAt)}`);
    }
    let p = nameAt + 1;
    while (p < this.end && isNameChar(t.charCodeAt(p))) p++;
    const name = t.slice(nameAt, p);
    const c = t.charCodeAt(p);
    if (c === SP || (c === TAB && !this.om)) {
      this.pos = p + 1;
      if (!this.om) this.skipBlanks();
    } else if (p < this.end && c !== LF) {
      this.fail(`expected ' ' after metric name "${name}", got ${this.describe(p)}`, p);
    } else {
      this.pos = p;
    }
    const textAt = this.pos;
    const textEnd = this.lineEnd(textAt);
    let help: string | undefined;
    let type: FamilyType | undefined;
    let unit: string | undefined;
    if (kw === META_HELP) {
      help = this.unescapeHelp(textAt, textEnd);
    } else if (kw === META_TYPE) {
      let e = textEnd;
      if (!this.om) while (e > textAt && (t.charCodeAt(e - 1) === SP || t.charCodeAt(e - 1) === TAB)) e--;
      const word = t.slice(textAt, e);
      const known = this.om ? OM_TYPES : PROM_TYPES;
      type = known.find((k) => k === word);
      if (type === undefined) {
        this.fail(`invalid metric type ${JSON.stringify(word)}: expected one of ${known.join(', ')}`, textAt);
      }
    } else {
      for (let i = textAt; i < textEnd; i++) {
        if (!isNameChar(t.charCodeAt(i))) this.fail(`invalid character ${this.describe(i)} in unit`, i);
      }
      unit = t.slice(textAt, textEnd);
      if (unit !== '' && !name.endsWith('_' + unit)) {
        this.fail(`metric family "${name}" must end in "_${unit}" to declare unit "${unit}"`, nameAt);
      }
    }
    this.pos = textEnd;

    let f: ParsedFamily;
    if (this.om) {
      const cur = this.current;
      if (cur !== undefined && cur.name === name) {
        if (this.currentHasSamples) {
          this.fail(`${metaWord(kw)} for metric family "${name}" after its samples; metadata must come first`, nameAt);
        }
        if ((this.currentMeta & kw) !== 0) this.fail(`second ${metaWord(kw)} line for metric family "${name}"`, nameAt);
        f = cur;
      } else {
        if (this.byName.has(name)) {
          this.fail(`metric family "${name}" appears a second time; OpenMetrics forbids interleaving families`, nameAt);
        }
        f = this.register(name, 'unknown');
        this.current = f;
        this.currentHasSamples = false;
        this.currentMeta = 0;
      }
      this.currentMeta |= kw;
    } else {
      // 0.0.4 (as Prometheus' scraper): repeated or late metadata is tolerated; the last one wins.
      f = this.byName.get(name) ?? this.register(name, 'untyped');
      this.current = f;
    }
    if (help !== undefined) f.help = help;
    if (type !== undefined) f.type = type;
    if (unit !== undefined && unit !== '') f.unit = unit; // an empty UNIT means no unit
  }

  private register(name: string, type: FamilyType): ParsedFamily {
    const f: ParsedFamily = { name, type };
    this.byName.set(name, f);
    this.families.push(f);
    return f;
  }

  /** HELP escapes: `\\` and `\n` (OpenMetrics also `\"`); 0.0.4 keeps other sequences verbatim. */
  private unescapeHelp(start: number, end: number): string {
    const t = this.text;
    let b = t.indexOf('\\', start);
    if (b < 0 || b >= end) return t.slice(start, end);
    let out = '';
    let seg = start;
    for (; b >= 0 && b < end; b = t.indexOf('\\', b)) {
      const e = b + 1 < end ? t.charCodeAt(b + 1) : -1;
      let rep: string;
      if (e === BSLASH) rep = '\\';
      else if (e === 110) rep = '\n';
      else if (e === QUOTE && this.om) rep = '"';
      else if (this.om) {
        this.fail(`invalid escape sequence ${this.describeEscape(b)} in HELP text: expected \\\\, \\n or \\"`, b);
      } else {
        b += e < 0 ? 1 : 2; // kept verbatim, as Prometheus does
        continue;
      }
      out += t.slice(seg, b) + rep;
      b += 2;
      seg = b;
    }
    return out + t.slice(seg, end);
  }

  private describeEscape(at: number): string {
    return at + 1 < this.end && this.text.charCodeAt(at + 1) !== LF
      ? JSON.stringify(this.text.slice(at, at + 2))
      : '"\\" at end of line';
  }

  // ---- samples ----

  private sampleLine(): void {
    const t = this.text;
    const om = this.om;
    const nameAt = this.pos;
    if (!isNameStart(t.charCodeAt(nameAt))) {
      this.fail(`expected metric name${om ? '' : ' or comment'}, got ${this.describe(nameAt)}`);
    }
    let p = nameAt + 1;
    while (p < this.end && isNameChar(t.charCodeAt(p))) p++;
    const prev = this.prevName;
    const name = p - nameAt === prev.length && t.startsWith(prev, nameAt) ? prev : t.slice(nameAt, p);
    this.prevName = name;
    if (this.limits.labelValueLengthLimit > 0 && p - nameAt > this.limits.labelValueLengthLimit) {
      throw labelValueTooLong(this.limits, name, METRIC_NAME_LABEL, name, p - nameAt);
    }
    const family = this.associate(name, nameAt);

    let count = 0;
    let c = t.charCodeAt(p);
    if (om) {
      if (c === LBRACE) {
        this.pos = p;
        count = this.labelSet(true, name);
        p = this.pos;
        c = t.charCodeAt(p);
      }
      if (c !== SP) this.fail(`expected ' ' before the value of "${name}", got ${this.describe(p)}`, p);
      p++;
    } else {
      this.pos = p;
      this.skipBlanks();
      const blank = this.pos > p;
      p = this.pos;
      if (t.charCodeAt(p) === LBRACE) {
        count = this.labelSet(true, name);
        this.skipBlanks();
        p = this.pos;
      } else if (!blank && p < this.end && t.charCodeAt(p) !== LF) {
        this.fail(`expected '{' or blank after metric name "${name}", got ${this.describe(p)}`, p);
      }
    }

    // Built now: an exemplar's label set reuses the scratch buffer.
    const labels = this.buildLabels(name, count);
    const valueAt = p;
    p = this.tokenEnd(p);
    if (p === valueAt) this.fail(`expected value for "${name}", got ${this.describe(p)}`, p);
    const value = this.parseFloat(valueAt, p, 'value');

    let timestampMs: number | undefined;
    let exemplar: ParsedExemplar | undefined;
    if (om) {
      if (t.charCodeAt(p) === SP) {
        p++;
        if (t.charCodeAt(p) !== HASH) {
          const tsAt = p;
          p = this.tokenEnd(p);
          timestampMs = this.parseSecondsAsMs(tsAt, p, 'timestamp');
          if (t.charCodeAt(p) === SP) p++;
        }
        if (t.charCodeAt(p) === HASH) {
          this.checkExemplarAllowed(family, name, p);
          this.pos = p;
          exemplar = this.exemplar();
          p = this.pos;
        } else if (p !== this.end && t.charCodeAt(p) !== LF) {
          this.fail(`expected timestamp or '# ' exemplar, got ${this.describe(p)}`, p);
        }
      }
    } else {
      this.pos = p;
      this.skipBlanks();
      p = this.pos;
      const tsAt = p;
      p = this.tokenEnd(p);
      if (p > tsAt) timestampMs = this.parseIntMs(tsAt, p);
    }
    this.pos = p;

    const sample: ParsedSample = { name, labels, value };
    if (timestampMs !== undefined) sample.timestampMs = timestampMs;
    if (exemplar !== undefined) sample.exemplar = exemplar;
    this.sampleCount++;
    this.onSample(sample, family);
  }

  /** The end of a value or timestamp token: the next blank, `\n` or end of input. */
  private tokenEnd(p: number): number {
    const t = this.text;
    while (p < this.end) {
      const c = t.charCodeAt(p);
      if (c === SP || c === LF || c === CR || ((c === TAB || c === LBRACE) && !this.om)) break;
      p++;
    }
    return p;
  }

  /** Finds the family of a sample name: the family whose name is the sample's minus a suffix valid for its type. */
  private associate(name: string, nameAt: number): ParsedFamily | undefined {
    const cur = this.current;
    let f: ParsedFamily | undefined;
    if (cur !== undefined && this.matches(cur, name)) f = cur;
    else {
      f = this.byName.get(name);
      if (f === undefined || !this.matches(f, name)) {
        f = undefined;
        for (let i = 1; i < SUFFIXES.length && f === undefined; i++) {
          const s = SUFFIXES[i];
          if (name.length > s.length && name.endsWith(s)) {
            const g = this.byName.get(name.slice(0, name.length - s.length));
            if (g !== undefined && this.matches(g, name)) f = g;
          }
        }
      }
    }
    if (!this.om) {
      if (f !== undefined) this.current = f;
      return f;
    }
    if (f === undefined) {
      const clash = this.byName.get(name);
      if (clash !== undefined) {
        this.fail(`sample "${name}" is not a valid sample name for ${clash.type} family "${name}"`, nameAt);
      }
      // A sample without metadata starts an implicit family of type unknown.
      f = this.register(name, 'unknown');
      this.current = f;
      this.currentMeta = 0;
    } else if (f !== cur) {
      this.fail(
        `sample "${name}" of metric family "${f.name}" after family "${cur?.name ?? ''}"; OpenMetrics forbids interleaving families`,
        nameAt,
      );
    }
    this.currentHasSamples = true;
    return f;
  }

  /** Reports whether `name` belongs to `f` (and records the suffix in `this.suffix`). */
  private matches(f: ParsedFamily, name: string): boolean {
    const fn = f.name;
    if (name.length < fn.length || !name.startsWith(fn)) return false;
    const allowed = ALLOWED[f.type] & (this.om && f.type === 'counter' ? ~EXACT : -1);
    for (let i = 0; i < SUFFIXES.length; i++) {
      const s = SUFFIXES[i];
      if ((allowed & (1 << i)) !== 0 && name.length === fn.length + s.length && (i === 0 || name.endsWith(s))) {
        this.suffix = i;
        return true;
      }
    }
    return false;
  }

  private checkExemplarAllowed(f: ParsedFamily | undefined, name: string, at: number): void {
    const type = f?.type;
    const ok =
      (type === 'counter' && this.suffix === 1) ||
      ((type === 'histogram' || type === 'gaugehistogram') && this.suffix === 3);
    if (!ok) this.fail(`exemplars are allowed only on counter _total and histogram _bucket samples, not on "${name}"`, at);
  }

  /** Reads ` # {labels} value [timestamp]` from its '#'. */
  private exemplar(): ParsedExemplar {
    const t = this.text;
    let p = this.pos + 1;
    if (t.charCodeAt(p) !== SP || t.charCodeAt(p + 1) !== LBRACE) {
      this.fail(`expected ' {' to start an exemplar, got ${this.describe(t.charCodeAt(p) === SP ? p + 1 : p)}`, p);
    }
    this.pos = p + 1;
    const count = this.labelSet(false, '');
    const flat = this.scratch.slice(0, 2 * count);
    p = this.pos;
    if (t.charCodeAt(p) !== SP) this.fail(`expected ' ' before the exemplar value, got ${this.describe(p)}`, p);
    p++;
    const valueAt = p;
    p = this.tokenEnd(p);
    if (p === valueAt) this.fail(`expected exemplar value, got ${this.describe(p)}`, p);
    const ex: ParsedExemplar = { labels: Labels.fromPairs(flat), value: this.parseFloat(valueAt, p, 'exemplar value') };
    if (t.charCodeAt(p) === SP) {
      const tsAt = p + 1;
      p = this.tokenEnd(tsAt);
      ex.timestampMs = this.parseSecondsAsMs(tsAt, p, 'exemplar timestamp');
    }
    this.pos = p;
    return ex;
  }

  /**
   * Reads `{name="value",...}` from its '{' into `scratch`; returns the number of pairs. 0.0.4
   * allows blanks between tokens and a trailing comma; OpenMetrics allows neither. A sample's
   * label set (`sample`, of metric `metric`) is interned and checked against the limits, each
   * label as soon as it is read.
   */
  private labelSet(sample: boolean, metric: string): number {
    const t = this.text;
    const om = this.om;
    const scratch = this.scratch;
    const intern = sample;
    const l = this.limits;
    const limited = sample && (l.labelLimit > 0 || l.labelNameLengthLimit > 0 || l.labelValueLengthLimit > 0);
    this.pos++;
    let count = 0;
    /** Labels with a value so far, `__name__` included: empty values are dropped, so they do not count. */
    let kept = 1;
    for (;;) {
      if (!om) this.skipBlanks();
      let p = this.pos;
      const c = t.charCodeAt(p);
      if (c === RBRACE && (count === 0 || !om)) {
        this.pos = p + 1;
        return count;
      }
      if (!isLabelStart(c)) {
        this.fail(`expected label name${count === 0 || !om ? " or '}'" : ''}, got ${this.describe(p)}`, p);
      }
      const nameAt = p;
      p++;
      while (p < this.end && isLabelChar(t.charCodeAt(p))) p++;
      let name: string;
      const cached = intern ? this.nameCache[count] : undefined;
      if (cached !== undefined && cached.length === p - nameAt && t.startsWith(cached, nameAt)) name = cached;
      else {
        name = t.slice(nameAt, p);
        if (intern) this.nameCache[count] = name;
      }
      this.pos = p;
      if (!om) this.skipBlanks();
      if (t.charCodeAt(this.pos) !== EQ) {
        this.fail(`expected '=' after label name "${name}", got ${this.describe(this.pos)}`);
      }
      this.pos++;
      if (!om) this.skipBlanks();
      if (t.charCodeAt(this.pos) !== QUOTE) {
        this.fail(`expected '"' to open the value of label "${name}", got ${this.describe(this.pos)}`);
      }
      const value = this.labelValue(name, intern ? count : -1);
      if (limited && value !== '') this.checkLabel(metric, name, value, ++kept);
      scratch[2 * count] = name;
      scratch[2 * count + 1] = value;
      this.scratchAt[count] = nameAt;
      count++;
      if (!om) this.skipBlanks();
      p = this.pos;
      const d = t.charCodeAt(p);
      if (d === COMMA) this.pos = p + 1;
      else if (d === RBRACE) {
        this.pos = p + 1;
        return count;
      } else this.fail(`expected ',' or '}' after the value of label "${name}", got ${this.describe(p)}`, p);
    }
  }

  /** Fails a label over a name or value length limit, or the line once it has too many labels. */
  private checkLabel(metric: string, name: string, value: string, kept: number): void {
    checkExposedLabel(this.limits, metric, name, value, kept);
  }

  /** Reads a quoted label value from its opening quote; `slot` >= 0 interns against the previous line. */
  private labelValue(labelName: string, slot: number): string {
    const t = this.text;
    const start = this.pos + 1;
    let p = start;
    let out: string | undefined;
    let seg = start;
    for (;;) {
      if (p >= this.end) this.fail(`unterminated value of label "${labelName}": expected '"'`, p);
      const c = t.charCodeAt(p);
      if (c === QUOTE) break;
      if (c === LF) this.fail(`unterminated value of label "${labelName}": expected '"' before end of line`, p);
      if (c === BSLASH) {
        const e = p + 1 < this.end ? t.charCodeAt(p + 1) : -1;
        let rep: string;
        if (e === BSLASH) rep = '\\';
        else if (e === QUOTE) rep = '"';
        else if (e === 110) rep = '\n';
        else if (this.om || e === LF || e < 0) {
          this.fail(
            `invalid escape sequence ${this.describeEscape(p)} in value of label "${labelName}": expected \\\\, \\" or \\n`,
            p,
          );
        } else {
          p += 2; // 0.0.4: kept verbatim, as Prometheus' scraper does
          continue;
        }
        out = (out ?? '') + t.slice(seg, p) + rep;
        p += 2;
        seg = p;
        continue;
      }
      p++;
    }
    this.pos = p + 1;
    if (out !== undefined) return out + t.slice(seg, p);
    if (slot >= 0) {
      const cached = this.valueCache[slot];
      if (cached !== undefined && cached.length === p - start && t.startsWith(cached, start)) return cached;
      const v = t.slice(start, p);
      this.valueCache[slot] = v;
      return v;
    }
    return t.slice(start, p);
  }

  /** Builds the sample's Labels; fast path when the text already lists names sorted (no sort, no copy). */
  private buildLabels(name: string, count: number): Labels {
    const s = this.scratch;
    let ordered = true;
    for (let i = 0; i < count; i++) {
      const n = s[2 * i];
      if (s[2 * i + 1] === '' || n === METRIC_NAME_LABEL || (i > 0 && n <= s[2 * i - 2])) {
        ordered = false;
        break;
      }
    }
    const flat: string[] = [];
    if (ordered) {
      let placed = false;
      for (let i = 0; i < count; i++) {
        if (!placed && s[2 * i] > METRIC_NAME_LABEL) {
          flat.push(METRIC_NAME_LABEL, name);
          placed = true;
        }
        flat.push(s[2 * i], s[2 * i + 1]);
      }
      if (!placed) flat.push(METRIC_NAME_LABEL, name);
      return Labels.fromSortedPairsUnchecked(flat);
    }
    // Unsorted names: sort the indices by name (ties in text order), so that duplicates sit side
    // by side; O(n log n) where comparing every pair was O(n²) (40,000 labels took seconds).
    const order = new Array<number>(count);
    for (let i = 0; i < count; i++) order[i] = i;
    order.sort((a, b) => {
      const na = s[2 * a];
      const nb = s[2 * b];
      return na < nb ? -1 : na > nb ? 1 : a - b;
    });
    // Report the label a left-to-right scan would stop at first: `__name__`, or a repeat of an earlier name.
    let bad = count;
    for (let k = 0; k < count; k++) {
      const i = order[k];
      if (i < bad && (s[2 * i] === METRIC_NAME_LABEL || (k > 0 && s[2 * order[k - 1]] === s[2 * i]))) bad = i;
    }
    if (bad < count) {
      const n = s[2 * bad];
      this.fail(n === METRIC_NAME_LABEL ? `label "${n}" repeats the metric name` : `duplicate label name "${n}"`, this.scratchAt[bad]);
    }
    let placed = false;
    for (let k = 0; k < count; k++) {
      const i = order[k];
      const n = s[2 * i];
      if (!placed && n > METRIC_NAME_LABEL) {
        flat.push(METRIC_NAME_LABEL, name);
        placed = true;
      }
      if (s[2 * i + 1] !== '') flat.push(n, s[2 * i + 1]);
    }
    if (!placed) flat.push(METRIC_NAME_LABEL, name);
    return Labels.fromSortedPairsUnchecked(flat);
  }

  // ---- numbers ----

  private readonly failAt: Fail = (detail, at) => this.fail(detail, at);

  private parseFloat(start: number, end: number, what: string): number {
    return parseFloatToken(this.text, start, end, what, this.failAt);
  }

  private parseIntMs(start: number, end: number): number {
    return parseIntMsToken(this.text, start, end, this.failAt);
  }

  private parseSecondsAsMs(start: number, end: number, what: string): number {
    return parseSecondsAsMsToken(this.text, start, end, what, this.failAt);
  }
}

function metaWord(kw: number): string {
  return kw === META_HELP ? 'HELP' : kw === META_TYPE ? 'TYPE' : 'UNIT';
}
