import { DEFAULT_INGEST_LIMITS, type IngestLimits } from '../ingest/index.js';
import { UsageError, parseBytes } from './args.js';

/**
 * The `--ingest.*` flags of `infersight serve`: the limits of the remote write and OTLP
 * receivers (docs/ingest.md, "Limits"). Kept apart from serve.ts so that the command only spreads
 * them into its flags and usage.
 */
export const INGEST_FLAG_OPTIONS = {
  'ingest.max-body-size': { type: 'string' },
  'ingest.max-series': { type: 'string' },
  'ingest.max-series-per-metric': { type: 'string' },
  'ingest.max-series-per-request': { type: 'string' },
  'ingest.max-labels-per-series': { type: 'string' },
  'ingest.max-label-name-length': { type: 'string' },
  'ingest.max-label-value-length': { type: 'string' },
  'ingest.series-cache-size': { type: 'string' },
} as const;

const D = DEFAULT_INGEST_LIMITS;
const MIB = 1024 * 1024;

/** The usage lines of the `--ingest.*` flags. */
export const INGEST_USAGE = `  --ingest.max-body-size SIZE       largest remote write / OTLP body, compressed and
                                    decompressed (default ${D.maxBodyBytes / MIB}MiB)
  --ingest.max-series N             active series (written within 1h) the receivers may
                                    have, all metrics together (default ${D.maxSeries}; 0: off)
  --ingest.max-series-per-metric N  the same, per metric name (default ${D.maxSeriesPerMetric}; 0: off)
  --ingest.max-series-per-request N series in one write request (default ${D.maxSeriesPerRequest}; 0: off)
  --ingest.max-labels-per-series N  labels of one series, __name__ included (default ${D.maxLabelsPerSeries}; 0: off)
  --ingest.max-label-name-length N  longest label name in bytes (default ${D.maxLabelNameBytes}; 0: off)
  --ingest.max-label-value-length N longest label value in bytes (default ${D.maxLabelValueBytes}; 0: off)
  --ingest.series-cache-size SIZE   memory of each receiver's series cache (default ${D.seriesCacheBytes / MIB}MiB)
`;

/** The flag values `parseArgs` returns for `INGEST_FLAG_OPTIONS`. */
export type IngestFlagValues = { readonly [K in keyof typeof INGEST_FLAG_OPTIONS]?: string };

function count(flag: string, text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(n) || n < 0) throw new UsageError(`invalid --${flag} ${JSON.stringify(text)}: want a whole number (0 turns the limit off)`);
  return n;
}

function size(flag: string, text: string): number {
  try {
    const n = parseBytes(text);
    if (n > 0) return n;
  } catch {
    // reported below, naming the flag
  }
  throw new UsageError(`invalid --${flag} ${JSON.stringify(text)}: want a positive size such as 64MiB`);
}

/** The ingest limits the `--ingest.*` flags ask for; unset flags keep the defaults. Throws `UsageError`. */
export function ingestLimitsFromFlags(values: IngestFlagValues): Partial<IngestLimits> {
  const out: { -readonly [K in keyof IngestLimits]?: number } = {};
  const v = values;
  if (v['ingest.max-body-size'] !== undefined) out.maxBodyBytes = size('ingest.max-body-size', v['ingest.max-body-size']);
  if (v['ingest.max-series'] !== undefined) out.maxSeries = count('ingest.max-series', v['ingest.max-series']);
  if (v['ingest.max-series-per-metric'] !== undefined) out.maxSeriesPerMetric = count('ingest.max-series-per-metric', v['ingest.max-series-per-metric']);
  if (v['ingest.max-series-per-request'] !== undefined) out.maxSeriesPerRequest = count('ingest.max-series-per-request', v['ingest.max-series-per-request']);
  if (v['ingest.max-labels-per-series'] !== undefined) out.maxLabelsPerSeries = count('ingest.max-labels-per-series', v['ingest.max-labels-per-series']);
  if (v['ingest.max-label-name-length'] !== undefined) out.maxLabelNameBytes = count('ingest.max-label-name-length', v['ingest.max-label-name-length']);
  if (v['ingest.max-label-value-length'] !== undefined) out.maxLabelValueBytes = count('ingest.max-label-value-length', v['ingest.max-label-value-length']);
  if (v['ingest.series-cache-size'] !== undefined) out.seriesCacheBytes = size('ingest.series-cache-size', v['ingest.series-cache-size']);
  return out;
}
