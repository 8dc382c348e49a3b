import type { FunctionDef, ValueType } from './ast.js';

type ArgType = Exclude<ValueType, 'none'>;

function fn(name: string, argTypes: ArgType[], variadic: number, returnType: ArgType, experimental = false): FunctionDef {
  return { name, argTypes, variadic, returnType, experimental };
}

/**
 * Every PromQL function of Prometheus 3.14 (`promql/parser/functions.go`), from
 * `shared/conformance/promql-functions.tsv`. `variadic` follows Prometheus: 0 means exactly
 * `argTypes.length` arguments; n > 0 means `argTypes.length - 1` up to `argTypes.length - 1 + n`,
 * the extra ones of the last type; -1 means no upper limit. Aggregations (`sum`, `topk`, ...) are
 * operators, not functions, and `holt_winters` is gone since 3.0.
 */
export const FUNCTIONS: ReadonlyMap<string, FunctionDef> = new Map(
  [
    fn('abs', ['vector'], 0, 'vector'),
    fn('absent', ['vector'], 0, 'vector'),
    fn('absent_over_time', ['matrix'], 0, 'vector'),
    fn('acos', ['vector'], 0, 'vector'),
    fn('acosh', ['vector'], 0, 'vector'),
    fn('asin', ['vector'], 0, 'vector'),
    fn('asinh', ['vector'], 0, 'vector'),
    fn('atan', ['vector'], 0, 'vector'),
    fn('atanh', ['vector'], 0, 'vector'),
    fn('avg_over_time', ['matrix'], 0, 'vector'),
    fn('ceil', ['vector'], 0, 'vector'),
    fn('changes', ['matrix'], 0, 'vector'),
    fn('clamp', ['vector', 'scalar', 'scalar'], 0, 'vector'),
    fn('clamp_max', ['vector', 'scalar'], 0, 'vector'),
    fn('clamp_min', ['vector', 'scalar'], 0, 'vector'),
    fn('cos', ['vector'], 0, 'vector'),
    fn('cosh', ['vector'], 0, 'vector'),
    fn('count_over_time', ['matrix'], 0, 'vector'),
    fn('day_of_month', ['vector'], 1, 'vector'),
    fn('day_of_week', ['vector'], 1, 'vector'),
    fn('day_of_year', ['vector'], 1, 'vector'),
    fn('days_in_month', ['vector'], 1, 'vector'),
    fn('deg', ['vector'], 0, 'vector'),
    fn('delta', ['matrix'], 0, 'vector'),
    fn('deriv', ['matrix'], 0, 'vector'),
    fn('double_exponential_smoothing', ['matrix', 'scalar', 'scalar'], 0, 'vector', true),
    fn('end', [], 0, 'scalar', true),
    fn('exp', ['vector'], 0, 'vector'),
    fn('first_over_time', ['matrix'], 0, 'vector'),
    fn('floor', ['vector'], 0, 'vector'),
    fn('histogram_avg', ['vector'], 0, 'vector'),
    fn('histogram_count', ['vector'], 0, 'vector'),
    fn('histogram_fraction', ['scalar', 'scalar', 'vector'], 0, 'vector'),
    fn('histogram_quantile', ['scalar', 'vector'], 0, 'vector'),
    fn('histogram_quantiles', ['vector', 'string', 'scalar', 'scalar'], 9, 'vector', true),
    fn('histogram_stddev', ['vector'], 0, 'vector'),
    fn('histogram_stdvar', ['vector'], 0, 'vector'),
    fn('histogram_sum', ['vector'], 0, 'vector'),
    fn('hour', ['vector'], 1, 'vector'),
    fn('idelta', ['matrix'], 0, 'vector'),
    fn('increase', ['matrix'], 0, 'vector'),
    fn('info', ['vector', 'vector'], 1, 'vector', true),
    fn('irate', ['matrix'], 0, 'vector'),
    fn('label_join', ['vector', 'string', 'string', 'string'], -1, 'vector'),
    fn('label_replace', ['vector', 'string', 'string', 'string', 'string'], 0, 'vector'),
    fn('last_over_time', ['matrix'], 0, 'vector'),
    fn('ln', ['vector'], 0, 'vector'),
    fn('log10', ['vector'], 0, 'vector'),
    fn('log2', ['vector'], 0, 'vector'),
    fn('mad_over_time', ['matrix'], 0, 'vector', true),
    fn('max_of', ['scalar', 'scalar'], 0, 'scalar', true),
    fn('max_over_time', ['matrix'], 0, 'vector'),
    fn('min_of', ['scalar', 'scalar'], 0, 'scalar', true),
    fn('min_over_time', ['matrix'], 0, 'vector'),
    fn('minute', ['vector'], 1, 'vector'),
    fn('month', ['vector'], 1, 'vector'),
    fn('pi', [], 0, 'scalar'),
    fn('predict_linear', ['matrix', 'scalar'], 0, 'vector'),
    fn('present_over_time', ['matrix'], 0, 'vector'),
    fn('quantile_over_time', ['scalar', 'matrix'], 0, 'vector'),
    fn('rad', ['vector'], 0, 'vector'),
    fn('range', [], 0, 'scalar', true),
    fn('rate', ['matrix'], 0, 'vector'),
    fn('resets', ['matrix'], 0, 'vector'),
    fn('round', ['vector', 'scalar'], 1, 'vector'),
    fn('scalar', ['vector'], 0, 'scalar'),
    fn('sgn', ['vector'], 0, 'vector'),
    fn('sin', ['vector'], 0, 'vector'),
    fn('sinh', ['vector'], 0, 'vector'),
    fn('sort', ['vector'], 0, 'vector'),
    fn('sort_by_label', ['vector', 'string'], -1, 'vector', true),
    fn('sort_by_label_desc', ['vector', 'string'], -1, 'vector', true),
    fn('sort_desc', ['vector'], 0, 'vector'),
    fn('sqrt', ['vector'], 0, 'vector'),
    fn('start', [], 0, 'scalar', true),
    fn('start_timestamp', ['vector'], 0, 'vector', true),
    fn('stddev_over_time', ['matrix'], 0, 'vector'),
    fn('stdvar_over_time', ['matrix'], 0, 'vector'),
    fn('step', [], 0, 'scalar', true),
    fn('sum_over_time', ['matrix'], 0, 'vector'),
    fn('tan', ['vector'], 0, 'vector'),
    fn('tanh', ['vector'], 0, 'vector'),
    fn('time', [], 0, 'scalar'),
    fn('timestamp', ['vector'], 0, 'vector'),
    fn('ts_of_first_over_time', ['matrix'], 0, 'vector', true),
    fn('ts_of_last_over_time', ['matrix'], 0, 'vector', true),
    fn('ts_of_max_over_time', ['matrix'], 0, 'vector', true),
    fn('ts_of_min_over_time', ['matrix'], 0, 'vector', true),
    fn('vector', ['scalar'], 0, 'vector'),
    fn('year', ['vector'], 1, 'vector'),
  ].map((f) => [f.name, f]),
);

/** The definition of a function by its exact (case-sensitive) name, or undefined. */
export function getFunction(name: string): FunctionDef | undefined {
  return FUNCTIONS.get(name);
}
