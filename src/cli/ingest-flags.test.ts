import { describe, expect, it } from 'vitest';
import { UsageError } from './args.js';
import { ingestLimitsFromFlags, type IngestFlagValues } from './ingest-flags.js';

describe('--ingest.* flags', () => {
  it.each([
    [{}, {}],
    [{ 'ingest.max-series': '1000' }, { maxSeries: 1000 }],
    [{ 'ingest.max-series-per-metric': '0' }, { maxSeriesPerMetric: 0 }],
    [{ 'ingest.max-series-per-request': '5' }, { maxSeriesPerRequest: 5 }],
    [{ 'ingest.max-labels-per-series': '40', 'ingest.max-label-name-length': '128', 'ingest.max-label-value-length': '1024' }, { maxLabelsPerSeries: 40, maxLabelNameBytes: 128, maxLabelValueBytes: 1024 }],
    [{ 'ingest.series-cache-size': '64MiB', 'ingest.max-body-size': '1MB' }, { seriesCacheBytes: 64 * 1024 * 1024, maxBodyBytes: 1_000_000 }],
  ] as [IngestFlagValues, object][])('%j', (flags, want) => {
    expect(ingestLimitsFromFlags(flags)).toEqual(want);
  });

  it.each([
    [{ 'ingest.max-series': '-1' }, '--ingest.max-series "-1"'],
    [{ 'ingest.max-label-value-length': '4k' }, '--ingest.max-label-value-length'],
    [{ 'ingest.series-cache-size': '0' }, '--ingest.series-cache-size "0": want a positive size'],
    [{ 'ingest.max-body-size': 'lots' }, '--ingest.max-body-size'],
  ] as [IngestFlagValues, string][])('refuses %j', (flags, want) => {
    expect(() => ingestLimitsFromFlags(flags)).toThrow(UsageError);
    expect(() => ingestLimitsFromFlags(flags)).toThrow(want);
  });
});
