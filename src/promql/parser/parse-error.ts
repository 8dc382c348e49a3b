import type { ErrorSpec } from '../../model/index.js';
import { PROMQL_ERRORS } from '../errors.js';
import type { PositionRange } from './ast.js';

/** The stable error code every `ParseError` carries (see docs/errors.md). */
export const PARSE_ERROR_CODE = PROMQL_ERRORS.PARSE.code;

/**
 * A query the parser rejects. `message` is Prometheus' `ParseErr.Error()` text,
 * `<line>:<col>: parse error: <reason>`, with line and column counted in bytes as Prometheus
 * does; `reason` is the part after `parse error: `. `positionRange` holds byte offsets into
 * `query`. The parser throws nothing else.
 */
export class ParseError extends Error {
  /** Always `ERR_PROMQL_PARSE`. */
  readonly code = PARSE_ERROR_CODE;

  /** The registry entry of `code`: status 400, `bad_data`. */
  get spec(): ErrorSpec {
    return PROMQL_ERRORS.PARSE;
  }

  constructor(
    readonly reason: string,
    readonly positionRange: PositionRange,
    readonly query: string,
    options?: ErrorOptions,
  ) {
    super(`${startPosInput(query, positionRange.start)}: parse error: ${reason}`, options);
    this.name = 'ParseError';
  }

  /**
   * The message followed by the query lines around the error and a caret line under the
   * offending range, in the style of graphql-js' `printLocation`:
   *
   * ```
   * 1:5: parse error: unexpected <op:+>
   *
   * 1 | foo + + bar
   *   |       ^
   * ```
   */
  render(): string {
    return `${this.message}\n\n${renderLocation(this.query, this.positionRange)}`;
  }
}

/** Prometheus' `PositionRange.StartPosInput`: `line:col` of a byte offset, both 1-based. */
function startPosInput(query: string, startByte: number): string {
  if (query === '') return 'unknown position';
  const bytes = new TextEncoder().encode(query);
  if (startByte < 0 || startByte > bytes.length) return 'invalid position';
  let line = 1;
  let lastBreak = -1;
  for (let i = 0; i < startByte; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lastBreak = i;
    }
  }
  return `${line}:${startByte - lastBreak}`;
}

/** The UTF-16 index of a byte offset into `s` (clamped to the string). */
function indexOfByte(s: string, byteOffset: number): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    if (bytes >= byteOffset) return i;
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return s.length;
}

function renderLocation(query: string, range: PositionRange): string {
  const start = indexOfByte(query, range.start);
  const end = Math.max(start, indexOfByte(query, range.end));
  const lines = query.split('\n');
  let lineIdx = 0;
  let lineStart = 0;
  while (lineIdx < lines.length - 1 && lineStart + lines[lineIdx].length < start) {
    lineStart += lines[lineIdx].length + 1;
    lineIdx++;
  }
  const col = start - lineStart;
  const line = lines[lineIdx];
  const width = Math.max(1, Math.min(end, lineStart + line.length) - start);
  const shown: [string, string][] = [];
  if (lineIdx > 0) shown.push([String(lineIdx), lines[lineIdx - 1]]);
  shown.push([String(lineIdx + 1), line]);
  const caret: [string, string] = ['', ' '.repeat(col) + '^'.repeat(width)];
  const after: [string, string][] = lineIdx + 1 < lines.length ? [[String(lineIdx + 2), lines[lineIdx + 1]]] : [];
  const rows = [...shown, caret, ...after];
  const pad = Math.max(...rows.map(([n]) => n.length));
  return rows.map(([n, text]) => `${n.padStart(pad)} | ${text}`.trimEnd()).join('\n');
}
