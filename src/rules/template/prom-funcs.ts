/**
 * Prometheus 2.42's template functions (template/template.go `NewTemplateExpander`): `query`,
 * `first`, `label`, `value`, `strvalue`, `sortByLabel`, `args`, `reReplaceAll`, `match`,
 * `safeHtml`, `title`, `toUpper`, `toLower`, `graphLink`, `tableLink`, `stripPort`,
 * `stripDomain`, the `humanize*` family, `toTime`, `pathPrefix`, `externalURL`, `parseDuration`.
 */
import { parsePromDuration } from '../../config/index.js';
import { Re2SyntaxError, compileRe2, goExpand, goQuote, re2ReplaceAll, type UnixMs } from '../../model/index.js';
import { parseSampleValue, type QueryClient } from '../../query/index.js';
import { FuncError, type GoFunc } from './exec.js';
import { urlQueryEscape } from './builtins.js';
import { humanize, humanize1024, humanizeDuration, humanizePercentage, humanizeTimestamp, toTime } from './humanize.js';
import { GoHTML, GoMap, GoSlice, GoStruct, type GoValue } from './values.js';

const SAMPLE = '*template.sample' as const;
const RESULT = 'template.queryResult' as const;
const NIL_DEREF = 'runtime error: invalid memory address or nil pointer dereference';

/** A query result sample as templates see it: `*template.sample{Labels, Value}`. */
export function sampleValue(labels: Readonly<Record<string, string>>, value: number): GoStruct {
  return new GoStruct(
    'template.sample',
    new Map<string, GoValue>([
      ['Labels', GoMap.ofStrings(labels)],
      ['Value', value],
    ]),
    true,
  );
}

function sampleField(s: GoValue, field: 'Labels' | 'Value'): GoValue {
  if (!(s instanceof GoStruct)) throw new FuncError(NIL_DEREF);
  return s.fields.get(field) ?? null;
}

function labelOf(s: GoValue, name: string): string {
  const labels = sampleField(s, 'Labels');
  return labels instanceof GoMap ? ((labels.entries.get(name) as string | undefined) ?? '') : '';
}

/** Go's `regexp.MustCompile`; a bad pattern panics, which the template reports as the call's error. */
function mustCompile(pattern: string): ReturnType<typeof compileRe2> {
  try {
    return compileRe2(pattern, { anchored: false, dotAll: false });
  } catch (e) {
    if (e instanceof Re2SyntaxError) throw new FuncError(`regexp: Compile(${goBackquote(pattern)}): ${e.message}`);
    throw e;
  }
}

/** Go's `strconv.Quote`-like backquoting of `regexp` panics (`quote` in regexp.go). */
function goBackquote(s: string): string {
  return !s.includes('`') && Array.from(s).every((c) => c >= ' ' && c !== '\x7f') ? `\`${s}\`` : goQuote(s);
}

/** Go's `Regexp.ReplaceAllString` (src/model's `re2ReplaceAll`, which redaction uses too). */
function replaceAll(pattern: string, repl: string, src: string): string {
  const re = mustCompile(pattern);
  return re2ReplaceAll(re, src, (groups) =>
    goExpand(repl, (ref) => {
      const idx = typeof ref === 'number' ? ref : (re.groupNames[ref] ?? -1);
      return idx >= 0 && idx < groups.length ? groups[idx] : undefined;
    }),
  );
}

/** Go's deprecated `strings.Title`: upper-cases the first letter of each word. */
function title(s: string): string {
  let prev = ' ';
  let out = '';
  for (const ch of s) {
    const sep = isSeparator(prev);
    out += sep ? ch.toUpperCase() : ch;
    prev = ch;
  }
  return out;
}

function isSeparator(ch: string): boolean {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp <= 0x7f) {
    if (/[0-9a-zA-Z_]/.test(ch)) return false;
    return true;
  }
  if (/[\p{L}\p{Nd}]/u.test(ch)) return false;
  return /\s/u.test(ch);
}

/** Go's `net.SplitHostPort`; undefined where Go returns an error. */
export function splitHostPort(hostport: string): { host: string; port: string } | undefined {
  const i = hostport.lastIndexOf(':');
  if (i < 0) return undefined;
  let host: string;
  let j = 0;
  let k = 0;
  if (hostport[0] === '[') {
    const end = hostport.indexOf(']');
    if (end < 0 || end + 1 !== i) return undefined;
    host = hostport.slice(1, end);
    j = 1;
    k = end + 1;
  } else {
    host = hostport.slice(0, i);
    if (host.includes(':')) return undefined;
  }
  if (hostport.slice(j).includes('[') || hostport.slice(k).includes(']')) return undefined;
  return { host, port: hostport.slice(i + 1) };
}

/** Go's `net.ParseIP(s) != nil`: dotted IPv4 (no leading zeros) or IPv6 (with an optional IPv4 tail). */
export function isIP(s: string): boolean {
  const v4 = (t: string): boolean => /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/.test(t);
  if (v4(s)) return true;
  if (!s.includes(':')) return false;
  let rest = s;
  let groups = 0;
  const lastColon = rest.lastIndexOf(':');
  const tail = rest.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!v4(tail)) return false;
    rest = rest.slice(0, lastColon + 1) + '0:0';
  }
  const parts = rest.split('::');
  if (parts.length > 2) return false;
  for (const part of parts) {
    if (part === '') continue;
    for (const g of part.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return false;
      groups++;
    }
  }
  return parts.length === 2 ? groups < 8 : groups === 8;
}

function joinHostPort(host: string, port: string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** What the Prometheus functions need: where `query` goes, when it evaluates, the external URL. */
export interface PromFuncContext {
  readonly queryClient: QueryClient;
  readonly evalTimeMs: UnixMs;
  /** `--web.external-url` as configured; undefined where none is (then the functions fail as Go's nil URL does). */
  readonly externalURL: string | undefined;
  /** Milliseconds left before the expansion's deadline (the query's timeout). */
  readonly remainingMs: () => number;
}

async function query(ctx: PromFuncContext, q: string): Promise<GoValue> {
  let data;
  try {
    ({ data } = await ctx.queryClient.instant(q, ctx.evalTimeMs, { timeoutMs: Math.max(1, ctx.remainingMs()) }));
  } catch (e) {
    // Prometheus' rule query function returns the engine's error, without the HTTP API's wording.
    const msg = e instanceof Error ? e.message : String(e);
    throw new FuncError(msg.replace(/^invalid parameter "query": /, ''));
  }
  if (data.resultType === 'scalar') return new GoSlice(RESULT, [sampleValue({}, parseSampleValue(data.result[1]))]);
  if (data.resultType !== 'vector') throw new FuncError('rule result is not a vector or scalar');
  return new GoSlice(
    RESULT,
    data.result.map((s) => sampleValue(s.metric, parseSampleValue(s.value[1]))),
  );
}

/** The names of Prometheus 2.42's template functions. */
export const PROM_FUNCTION_NAMES: readonly string[] = [
  'query', 'first', 'label', 'value', 'strvalue', 'args', 'reReplaceAll', 'safeHtml', 'match', 'title', 'toUpper', 'toLower', 'graphLink', 'tableLink',
  'sortByLabel', 'stripPort', 'stripDomain', 'humanize', 'humanize1024', 'humanizeDuration', 'humanizePercentage', 'humanizeTimestamp', 'toTime',
  'pathPrefix', 'externalURL', 'parseDuration',
];

/** The Prometheus functions, bound to one expansion's context (the names of `PROM_FUNCTION_NAMES`). */
export function promFuncs(ctx: PromFuncContext): Map<string, GoFunc> {
  const str = (f: (s: string) => GoValue): GoFunc => ({ params: ['string'], call: ([s]) => f(s as string) });
  const anyFn = (f: (v: GoValue) => GoValue): GoFunc => ({ params: ['interface {}'], call: ([v]) => f(v) });
  const url = (): string => {
    // Go dereferences a nil *url.URL here and panics.
    if (ctx.externalURL === undefined) throw new FuncError(NIL_DEREF);
    return ctx.externalURL;
  };
  return new Map<string, GoFunc>([
    ['query', { params: ['string'], call: ([q]) => query(ctx, q as string) }],
    [
      'first',
      {
        params: [RESULT],
        call: ([v]) => {
          if (v instanceof GoSlice && v.items.length > 0) return v.items[0];
          throw new FuncError('first() called on vector with no elements');
        },
      },
    ],
    ['label', { params: ['string', SAMPLE], call: ([l, s]) => labelOf(s, l as string) }],
    ['value', { params: [SAMPLE], call: ([s]) => sampleField(s, 'Value') }],
    ['strvalue', { params: [SAMPLE], call: ([s]) => labelOf(s, '__value__') }],
    [
      'args',
      {
        params: [],
        variadic: 'interface {}',
        call: (a) => new GoMap('interface {}', new Map(a.map((v, i) => [`arg${i}`, v]))),
      },
    ],
    ['reReplaceAll', { params: ['string', 'string', 'string'], call: ([p, r, t]) => replaceAll(p as string, r as string, t as string) }],
    ['safeHtml', str((s) => new GoHTML(s))],
    ['match', { params: ['string', 'string'], call: ([p, s]) => mustCompileForMatch(p as string).test(s as string) }],
    ['title', str(title)],
    ['toUpper', str((s) => s.toUpperCase())],
    ['toLower', str((s) => s.toLowerCase())],
    ['graphLink', str((e) => `/graph?g0.expr=${urlQueryEscape(e)}&g0.tab=0`)],
    ['tableLink', str((e) => `/graph?g0.expr=${urlQueryEscape(e)}&g0.tab=1`)],
    [
      'sortByLabel',
      {
        params: ['string', RESULT],
        call: ([l, v]) => {
          if (!(v instanceof GoSlice)) return v;
          // Go's sort.Stable; Array.prototype.sort is stable too.
          const sorted = [...v.items].sort((a, b) => {
            const x = labelOf(a, l as string);
            const y = labelOf(b, l as string);
            return x < y ? -1 : x > y ? 1 : 0;
          });
          return new GoSlice(v.typeName, sorted);
        },
      },
    ],
    ['stripPort', str((hp) => splitHostPort(hp)?.host ?? hp)],
    [
      'stripDomain',
      str((hp) => {
        const split = splitHostPort(hp);
        const host = split?.host ?? hp;
        if (isIP(host)) return hp;
        const short = host.split('.')[0];
        return split !== undefined && split.port !== '' ? joinHostPort(short, split.port) : short;
      }),
    ],
    ['humanize', anyFn(humanize)],
    ['humanize1024', anyFn(humanize1024)],
    ['humanizeDuration', anyFn(humanizeDuration)],
    ['humanizePercentage', anyFn(humanizePercentage)],
    ['humanizeTimestamp', anyFn(humanizeTimestamp)],
    ['toTime', anyFn(toTime)],
    ['pathPrefix', { params: [], call: () => urlPath(url()) }],
    ['externalURL', { params: [], call: () => url() }],
    [
      'parseDuration',
      str((d) => {
        try {
          return parsePromDuration(d) / 1000;
        } catch (e) {
          throw new FuncError(e instanceof Error ? e.message : String(e));
        }
      }),
    ],
  ]);
}

/** `regexp.MatchString` returns the compile error instead of panicking. */
function mustCompileForMatch(pattern: string): ReturnType<typeof compileRe2> {
  try {
    return compileRe2(pattern, { anchored: false, dotAll: false });
  } catch (e) {
    if (e instanceof Re2SyntaxError) throw new FuncError(e.message);
    throw e;
  }
}

/**
 * The decoded path of a URL as Go's `url.URL.Path` holds it: `http://h:9090` has the path `""`,
 * `http://h:9090/` the path `/` (WHATWG's `URL` gives `/` for both). `externalURL` returns the
 * configured text, which Go's `String()` reproduces for the URLs Prometheus accepts.
 */
export function urlPath(u: string): string {
  const path = u.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/, '').replace(/[?#].*$/, '');
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
