import { formatGoFloatG } from '../../model/index.js';

/**
 * Prometheus' `labels.FormatOpenMetricsFloat`: like `%g` (`formatGoFloatG` in `src/model`, where
 * every other Go number printer lives), but integral values get a `.0` (`0.0`, `1.0`, `100.0`)
 * so that they read as floats. `histogram_quantiles` names its `quantile` labels with it.
 */
export function formatOpenMetricsFloat(x: number): string {
  const s = formatGoFloatG(x);
  if (Number.isNaN(x) || !Number.isFinite(x)) return s;
  return s.includes('.') || s.includes('e') ? s : `${s}.0`;
}
