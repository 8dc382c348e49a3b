// The tables of docs/errors.md, rendered from the error registries (src/<module>/errors.ts).
// The page's prose is written by hand; each table sits between `<!-- errors:<name> -->` and
// `<!-- /errors:<name> -->` and is replaced by what the registry says. Used by
// scripts/gen-errors-doc.ts and by test/tooling/errors-doc.test.ts (which fails on a stale page).
import { GATEWAY_ERRORS } from '../src/gateway/index.js';
import { HTTP_ERRORS } from '../src/http/index.js';
import { INGEST_ERRORS } from '../src/ingest/index.js';
import type { ErrorRegistry, ErrorSpec } from '../src/model/index.js';
import { QUALITY_GUARD_ERRORS } from '../src/normalize/index.js';
import { PROMQL_ERRORS } from '../src/promql/index.js';
import { QUALITY_INGEST_ERRORS } from '../src/quality/index.js';
import { ERROR_TYPES, ERROR_TYPE_MEANINGS, httpStatusForErrorType } from '../src/query/index.js';
import { STORAGE_ERRORS } from '../src/storage/index.js';
import { WIRE_ERRORS } from '../src/wire/index.js';

const SUPERSCRIPTS = ['¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

/** One table: its header cells and, for each entry, its cells after the code. */
interface TableSpec {
  readonly registry: ErrorRegistry;
  readonly columns: readonly string[];
  readonly cells: (spec: ErrorSpec, mark: string) => readonly string[];
}

const statusCell = (spec: ErrorSpec, mark: string): string => (spec.status === null ? '—' : String(spec.status)) + mark;
const errorTypeCell = (spec: ErrorSpec): string =>
  spec.errorType === null ? '—' : `${httpStatusForErrorType(spec.errorType)} \`${spec.errorType}\``;

const CODE_TABLES: Readonly<Record<string, TableSpec>> = {
  storage: {
    registry: STORAGE_ERRORS,
    columns: ['meaning', 'write path', 'query API (`errorType`)'],
    cells: (s, mark) => [s.meaning, statusCell(s, mark), errorTypeCell(s)],
  },
  promql: { registry: PROMQL_ERRORS, columns: ['meaning', 'HTTP API'], cells: (s) => [s.meaning, errorTypeCell(s)] },
  ingest: { registry: INGEST_ERRORS, columns: ['meaning', 'status'], cells: (s, mark) => [s.meaning, statusCell(s, mark)] },
  wire: { registry: WIRE_ERRORS, columns: ['meaning', 'status (ingest)'], cells: (s, mark) => [s.meaning, statusCell(s, mark)] },
  gateway: { registry: GATEWAY_ERRORS, columns: ['meaning', 'status'], cells: (s, mark) => [s.meaning, statusCell(s, mark)] },
  http: { registry: HTTP_ERRORS, columns: ['meaning', 'status'], cells: (s, mark) => [s.meaning, statusCell(s, mark)] },
  quality: {
    registry: { ...QUALITY_INGEST_ERRORS, ...QUALITY_GUARD_ERRORS },
    columns: ['meaning', 'status', '`errorType`'],
    cells: (s, mark) => [s.meaning, statusCell(s, mark), s.errorType === null ? '—' : `\`${s.errorType}\``],
  },
};

/** A code registry's table, with its entries' notes as numbered footnotes under it. */
function codeTable(t: TableSpec): string {
  const lines = [`| code | ${t.columns.join(' | ')} |`, `| --- | ${t.columns.map(() => '---').join(' | ')} |`];
  const notes: string[] = [];
  for (const spec of Object.values(t.registry)) {
    let mark = '';
    if (spec.note !== undefined) {
      mark = ` ${SUPERSCRIPTS[notes.length]}`;
      notes.push(`${SUPERSCRIPTS[notes.length]} ${spec.note}`);
    }
    lines.push(`| \`${spec.code}\` | ${t.cells(spec, mark).join(' | ')} |`);
  }
  return [lines.join('\n'), ...notes].join('\n\n');
}

/** The query API's table: each `errorType`, its status and meaning. */
function errorTypeTable(): string {
  const lines = ['| `errorType` | status | meaning |', '| --- | --- | --- |'];
  for (const t of ERROR_TYPES) {
    const status = t === 'bad_response' ? '—' : String(httpStatusForErrorType(t));
    lines.push(`| \`${t}\` | ${status} | ${ERROR_TYPE_MEANINGS[t]} |`);
  }
  return lines.join('\n');
}

/** Every generated table of docs/errors.md by the name in its markers. */
export function errorTables(): ReadonlyMap<string, string> {
  const out = new Map<string, string>([['query', errorTypeTable()]]);
  for (const [name, t] of Object.entries(CODE_TABLES)) out.set(name, codeTable(t));
  return out;
}

/**
 * `page` (docs/errors.md) with every marked table replaced by the registries' current one.
 * Throws when a table has no markers in the page, so that a new registry cannot go unlisted.
 */
export function renderErrorsDoc(page: string): string {
  let out = page;
  for (const [name, table] of errorTables()) {
    const open = `<!-- errors:${name} -->`;
    const close = `<!-- /errors:${name} -->`;
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    if (start < 0 || end < start) throw new Error(`docs/errors.md: no ${open} … ${close} markers for the ${name} table`);
    out = `${out.slice(0, start + open.length)}\n${table}\n${out.slice(end)}`;
  }
  return out;
}
