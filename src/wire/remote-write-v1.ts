import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { WireError, WireErrorCode, errorMessage } from './errors.js';
import { WriteRequestSchema, type WriteRequest } from './gen/prometheus/remote_pb.js';
import { ProtoReader, WireType } from './proto-reader.js';

/** Remote write 1.0's media type (with or without `proto=prometheus.WriteRequest`). */
export const REMOTE_WRITE_V1_PROTO = 'prometheus.WriteRequest';

/** Metric metadata as remote write 1.0 carries it (one entry per metric family). */
export interface RemoteWriteMetadata {
  /** Lower-case Prometheus type: `unknown`, `counter`, `gauge`, `histogram`, `gaugehistogram`, `summary`, `info`, `stateset`. */
  readonly type: string;
  readonly metricFamilyName: string;
  readonly help: string;
  readonly unit: string;
}

/**
 * A decoded `prometheus.WriteRequest`, laid out in columns so that decoding allocates little per
 * sample. Series `i` owns the samples `sampleStart[i] .. sampleStart[i + 1] - 1` of `tMs` and
 * `values`. Labels are decoded on demand (`labels(i)`): a receiver that already knows a series by
 * its `labelKey` never pays for the strings.
 */
export interface RemoteWriteV1Batch {
  readonly seriesCount: number;
  /**
   * The series' encoded label fields as a string of one char per byte: equal for two series
   * whose labels were encoded alike, so a receiver can cache what it derived from them.
   */
  readonly labelKeys: readonly string[];
  readonly sampleStart: Int32Array;
  readonly tMs: Float64Array;
  readonly values: Float64Array;
  /** Native histogram samples in the request (Infersight cannot store them yet). */
  readonly histogramCount: number;
  /** Exemplars in the request (ignored by Infersight). */
  readonly exemplarCount: number;
  readonly metadata: readonly RemoteWriteMetadata[];
  /**
   * The labels of series `i` as sent, flat `[name, value, ...]` (not sorted, not checked for
   * names). Throws `WireError` `ERR_WIRE_PROTOBUF` when a `Label` message is malformed or a name
   * or value is not valid UTF-8 (the message names the label; nothing is replaced by U+FFFD).
   */
  labels(i: number): string[];
}

/** Wire types by number (`ProtoReader.tagNumber` guarantees 0..5). */
const WIRE_TYPES: readonly WireType[] = [WireType.Varint, WireType.Bit64, WireType.LengthDelimited, WireType.StartGroup, WireType.EndGroup, WireType.Bit32];

const METRIC_TYPES = ['unknown', 'counter', 'gauge', 'histogram', 'gaugehistogram', 'summary', 'info', 'stateset'];

/** Growable columns, doubled as needed; reused by nothing (one per decode). */
class Columns {
  tMs = new Float64Array(256);
  values = new Float64Array(256);
  n = 0;
  spans = new Int32Array(512);
  nSpans = 0;

  addSample(t: number, v: number): void {
    if (this.n === this.tMs.length) {
      this.tMs = grow(this.tMs);
      this.values = grow(this.values);
    }
    this.tMs[this.n] = t;
    this.values[this.n++] = v;
  }

  addSpan(start: number, end: number): void {
    if (this.nSpans + 2 > this.spans.length) this.spans = grow(this.spans);
    this.spans[this.nSpans++] = start;
    this.spans[this.nSpans++] = end;
  }
}

function grow<T extends Float64Array | Int32Array>(a: T): T {
  const b = new (a.constructor as new (n: number) => T)(a.length * 2);
  b.set(a);
  return b;
}

function bad(r: ProtoReader, what: string): WireError {
  return new WireError(WireErrorCode.PROTOBUF, `protobuf: invalid prometheus.WriteRequest: ${what} at byte ${r.pos}`);
}

function expectLength(r: ProtoReader, wt: WireType, field: string): void {
  if (wt !== WireType.LengthDelimited) throw bad(r, `${field} has wire type ${wt}, want 2`);
}

/** Reads one `Sample` message ending at `end`. */
function readSample(r: ProtoReader, end: number, cols: Columns): void {
  let t = 0;
  let v = 0;
  while (r.pos < end) {
    const tag = r.tagNumber();
    const no = tag >>> 3;
    const wt = WIRE_TYPES[tag & 7];
    if (no === 1 && wt === WireType.Bit64) v = r.double();
    else if (no === 2 && wt === WireType.Varint) t = r.int64Number();
    else if (no === 1 || no === 2) throw bad(r, `Sample field ${no} has wire type ${wt}`);
    else r.skipField(wt, no);
  }
  if (r.pos !== end) throw bad(r, 'Sample overruns its length');
  cols.addSample(t, v);
}

interface SeriesCounts {
  histograms: number;
  exemplars: number;
}

/** Reads one `TimeSeries` ending at `end`; returns its label key. */
function readSeries(r: ProtoReader, end: number, cols: Columns, counts: SeriesCounts): string {
  let key = '';
  let keyStart = -1;
  let keyEnd = -1;
  while (r.pos < end) {
    const tagStart = r.pos;
    const tag = r.tagNumber();
    const no = tag >>> 3;
    const wt = WIRE_TYPES[tag & 7];
    if (no === 1) {
      expectLength(r, wt, 'TimeSeries.labels');
      const e = r.subEnd();
      if (e > end) throw bad(r, 'Label overruns its series');
      cols.addSpan(r.pos, e);
      if (keyEnd !== tagStart) {
        if (keyStart >= 0) key += r.binaryString(keyStart, keyEnd);
        keyStart = tagStart;
      }
      keyEnd = e;
      r.pos = e;
    } else if (no === 2) {
      expectLength(r, wt, 'TimeSeries.samples');
      const e = r.subEnd();
      if (e > end) throw bad(r, 'Sample overruns its series');
      readSample(r, e, cols);
    } else {
      if (no === 3) counts.exemplars++;
      else if (no === 4) counts.histograms++;
      r.skipField(wt, no);
    }
  }
  if (r.pos !== end) throw bad(r, 'TimeSeries overruns its length');
  return keyStart >= 0 ? key + r.binaryString(keyStart, keyEnd) : key;
}

function readMetadata(r: ProtoReader, end: number): RemoteWriteMetadata {
  let type = 0;
  let metricFamilyName = '';
  let help = '';
  let unit = '';
  while (r.pos < end) {
    const [no, wt] = r.tag();
    if (no === 1 && wt === WireType.Varint) type = r.int32();
    else if (no === 2 && wt === WireType.LengthDelimited) metricFamilyName = r.string();
    else if (no === 4 && wt === WireType.LengthDelimited) help = r.string();
    else if (no === 5 && wt === WireType.LengthDelimited) unit = r.string();
    else if (no === 1 || no === 2 || no === 4 || no === 5) throw bad(r, `MetricMetadata field ${no} has wire type ${wt}`);
    else r.skipField(wt, no);
  }
  if (r.pos !== end) throw bad(r, 'MetricMetadata overruns its length');
  return { type: METRIC_TYPES[type] ?? 'unknown', metricFamilyName, help, unit };
}

/** Decodes the `Label` message spanning `[start, end)` of series `series`; pushes name and value. */
function readLabel(r: ProtoReader, start: number, end: number, out: string[], series: number): void {
  r.pos = start;
  let name: string | null = '';
  let value: string | null = '';
  let nameAt = -1;
  let valueAt = -1;
  while (r.pos < end) {
    const tag = r.tagNumber();
    const no = tag >>> 3;
    const wt = WIRE_TYPES[tag & 7];
    if (no === 1 && wt === WireType.LengthDelimited) {
      nameAt = r.pos;
      name = r.utf8String();
    } else if (no === 2 && wt === WireType.LengthDelimited) {
      valueAt = r.pos;
      value = r.utf8String();
    } else if (no === 1 || no === 2) throw bad(r, `Label field ${no} has wire type ${wt}`);
    else r.skipField(wt, no);
  }
  if (r.pos !== end) throw bad(r, 'Label overruns its length');
  if (name === null) throw invalidUtf8(r, series, `label name ${quoteLossy(r, nameAt)}`);
  if (value === null) throw invalidUtf8(r, series, `the value of label ${JSON.stringify(name)} (${quoteLossy(r, valueAt)})`);
  out.push(name, value);
}

/** The length-delimited bytes at `at` (the length prefix), decoded lossily and quoted, at most 64 characters. */
function quoteLossy(r: ProtoReader, at: number): string {
  const save = r.pos;
  r.pos = at;
  const end = r.subEnd();
  const s = r.lossyString(r.pos, Math.min(end, r.pos + 256));
  r.pos = save;
  return JSON.stringify(s.length > 64 ? `${s.slice(0, 61)}...` : s);
}

function invalidUtf8(r: ProtoReader, series: number, what: string): WireError {
  return new WireError(WireErrorCode.PROTOBUF, `protobuf: invalid prometheus.WriteRequest: series ${series}: ${what} is not valid UTF-8`);
}

/**
 * Decodes an uncompressed `prometheus.WriteRequest` (remote write 1.0). Walks the wire format
 * with `@bufbuild/protobuf`'s reader instead of building message objects: one column entry per
 * sample, no strings until `labels(i)` is called. Throws `WireError` `ERR_WIRE_PROTOBUF` for
 * bytes that are not a valid message; the inside of each `Label` message is checked only when
 * `labels(i)` decodes it, so that call can throw the same error (a receiver that caches by
 * `labelKeys` decoded byte-identical labels before, and those were valid).
 */
export function decodeRemoteWriteV1(buf: Uint8Array): RemoteWriteV1Batch {
  const r = new ProtoReader(buf);
  const cols = new Columns();
  const keys: string[] = [];
  const sampleStart: number[] = [0];
  const spanStart: number[] = [0];
  const metadata: RemoteWriteMetadata[] = [];
  const counts: SeriesCounts = { histograms: 0, exemplars: 0 };
  try {
    while (r.pos < r.len) {
      const tag = r.tagNumber();
      const no = tag >>> 3;
      const wt = WIRE_TYPES[tag & 7];
      if (no === 1) {
        expectLength(r, wt, 'WriteRequest.timeseries');
        const end = r.subEnd();
        keys.push(readSeries(r, end, cols, counts));
        sampleStart.push(cols.n);
        spanStart.push(cols.nSpans);
      } else if (no === 3) {
        expectLength(r, wt, 'WriteRequest.metadata');
        metadata.push(readMetadata(r, r.subEnd()));
      } else {
        r.skipField(wt, no);
      }
    }
  } catch (e) {
    if (e instanceof WireError) throw e;
    throw new WireError(WireErrorCode.PROTOBUF, `protobuf: invalid prometheus.WriteRequest: ${errorMessage(e)}`, { cause: e });
  }
  const spans = cols.spans;
  const labels = (i: number): string[] => {
    const out: string[] = [];
    try {
      for (let k = spanStart[i]; k < spanStart[i + 1]; k += 2) readLabel(r, spans[k], spans[k + 1], out, i);
    } catch (e) {
      if (e instanceof WireError) throw e;
      throw new WireError(WireErrorCode.PROTOBUF, `protobuf: invalid prometheus.WriteRequest: ${errorMessage(e)}`, { cause: e });
    }
    return out;
  };
  return {
    seriesCount: keys.length,
    labelKeys: keys,
    sampleStart: Int32Array.from(sampleStart),
    tMs: cols.tMs.subarray(0, cols.n),
    values: cols.values.subarray(0, cols.n),
    histogramCount: counts.histograms,
    exemplarCount: counts.exemplars,
    metadata,
    labels,
  };
}


/** A remote write 1.0 series to encode: labels as name/value pairs, samples in time order. */
export interface RemoteWriteV1Series {
  readonly labels: readonly (readonly [name: string, value: string])[];
  readonly samples: readonly { readonly tMs: number; readonly value: number }[];
}

/** Encodes an uncompressed `prometheus.WriteRequest` (compress it with `snappyEncode`). */
export function encodeRemoteWriteV1(series: readonly RemoteWriteV1Series[], metadata: readonly RemoteWriteMetadata[] = []): Uint8Array {
  const msg = create(WriteRequestSchema, {
    timeseries: series.map((s) => ({
      labels: s.labels.map(([name, value]) => ({ name, value })),
      samples: s.samples.map((x) => ({ value: x.value, timestamp: BigInt(x.tMs) })),
    })),
    metadata: metadata.map((m) => ({
      type: Math.max(0, METRIC_TYPES.indexOf(m.type)),
      metricFamilyName: m.metricFamilyName,
      help: m.help,
      unit: m.unit,
    })),
  });
  return toBinary(WriteRequestSchema, msg);
}

/**
 * Decodes with the generated message classes: slower, but a second, independent reading of the
 * same bytes (tests compare it with `decodeRemoteWriteV1`). Throws `ERR_WIRE_PROTOBUF`.
 */
export function decodeRemoteWriteV1Message(buf: Uint8Array): WriteRequest {
  try {
    return fromBinary(WriteRequestSchema, buf);
  } catch (e) {
    throw new WireError(WireErrorCode.PROTOBUF, `protobuf: invalid prometheus.WriteRequest: ${errorMessage(e)}`, { cause: e });
  }
}
