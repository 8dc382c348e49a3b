/**
 * Public surface of the PromQL parser: `parseExpr` and its error, the printers, the function
 * table and the selector/metric parsers the HTTP API needs. See README.md.
 */
export * from './ast.js';
export { parseExpr, parseMetric, parseMetricSelector } from './parser.js';
export type { ParserOptions } from './parser-state.js';
export { PARSE_ERROR_CODE, ParseError } from './parse-error.js';
export { FUNCTIONS, getFunction } from './functions.js';
export { exprToString } from './printer.js';
export { MAX_CHARACTERS_PER_LINE, prettify } from './prettier.js';
