/**
 * The parts of an OTLP `ExportMetricsServiceRequest` that a metrics receiver reads, as plain
 * structural types. The generated `@bufbuild/protobuf` messages (what `fromJson` returns) satisfy
 * them, and so do the plain objects of the fast protobuf decoder (`otlp-decode.ts`), so one
 * translator serves both. Field names and oneof cases are the generated ones.
 */

/** An attribute value (`AnyValue`): a oneof. */
export interface OtlpAnyValue {
  readonly value:
    | { readonly case: 'stringValue'; readonly value: string }
    | { readonly case: 'boolValue'; readonly value: boolean }
    | { readonly case: 'intValue'; readonly value: bigint }
    | { readonly case: 'doubleValue'; readonly value: number }
    | { readonly case: 'arrayValue'; readonly value: { readonly values: readonly OtlpAnyValue[] } }
    | { readonly case: 'kvlistValue'; readonly value: { readonly values: readonly OtlpKeyValue[] } }
    | { readonly case: 'bytesValue'; readonly value: Uint8Array }
    | { readonly case: undefined; readonly value?: undefined };
}

/** One attribute. */
export interface OtlpKeyValue {
  readonly key: string;
  readonly value?: OtlpAnyValue;
}

/** A gauge or sum point. */
export interface OtlpNumberPoint {
  readonly attributes: readonly OtlpKeyValue[];
  readonly timeUnixNano: bigint;
  readonly value:
    | { readonly case: 'asDouble'; readonly value: number }
    | { readonly case: 'asInt'; readonly value: bigint }
    | { readonly case: undefined; readonly value?: undefined };
  readonly flags: number;
}

/** An explicit-bucket histogram point (`bucketCounts` per bucket, not cumulative). */
export interface OtlpHistogramPoint {
  readonly attributes: readonly OtlpKeyValue[];
  readonly timeUnixNano: bigint;
  readonly count: bigint;
  readonly sum?: number;
  readonly bucketCounts: readonly bigint[];
  readonly explicitBounds: readonly number[];
  readonly flags: number;
}

/** A summary point. */
export interface OtlpSummaryPoint {
  readonly attributes: readonly OtlpKeyValue[];
  readonly timeUnixNano: bigint;
  readonly count: bigint;
  readonly sum: number;
  readonly quantileValues: readonly { readonly quantile: number; readonly value: number }[];
  readonly flags: number;
}

/** One metric: name, unit and its data (a oneof; exponential histograms are only counted). */
export interface OtlpMetricView {
  readonly name: string;
  readonly unit: string;
  readonly data:
    | { readonly case: 'gauge'; readonly value: { readonly dataPoints: readonly OtlpNumberPoint[] } }
    | { readonly case: 'sum'; readonly value: { readonly dataPoints: readonly OtlpNumberPoint[]; readonly aggregationTemporality: number; readonly isMonotonic: boolean } }
    | { readonly case: 'histogram'; readonly value: { readonly dataPoints: readonly OtlpHistogramPoint[]; readonly aggregationTemporality: number } }
    | { readonly case: 'exponentialHistogram'; readonly value: { readonly dataPoints: readonly unknown[]; readonly aggregationTemporality: number } }
    | { readonly case: 'summary'; readonly value: { readonly dataPoints: readonly OtlpSummaryPoint[] } }
    | { readonly case: undefined; readonly value?: undefined };
}

/** A decoded `ExportMetricsServiceRequest`, as far as a receiver reads it. */
export interface OtlpMetricsRequest {
  readonly resourceMetrics: readonly {
    readonly resource?: { readonly attributes: readonly OtlpKeyValue[] };
    readonly scopeMetrics: readonly { readonly metrics: readonly OtlpMetricView[] }[];
  }[];
}
