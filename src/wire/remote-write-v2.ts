import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { WireError, WireErrorCode, errorMessage } from './errors.js';
import { RequestSchema } from './gen/io/prometheus/write/v2/types_pb.js';
import { ProtoReader, WireType } from './proto-reader.js';

/** The `proto` parameter of remote write 2.0's media type. */
export const REMOTE_WRITE_V2_PROTO = 'io.prometheus.write.v2.Request';

const METRIC_TYPES = ['unknown', 'counter', 'gauge', 'histogram', 'gaugehistogram', 'summary', 'info', 'stateset'];

/** One series of a decoded remote write 2.0 request, its symbol references resolved. */
export interface RemoteWriteV2Series {
  /** The labels as sent, flat `[name, value, ...]` (not sorted, not checked). */
  readonly labels: string[];
  readonly tMs: number[];
  readonly values: number[];
  /** Native histogram samples (Infersight cannot store them yet). */
  readonly histogramCount: number;
  /** Exemplars (ignored by Infersight). */
  readonly exemplarCount: number;
  /** Lower-case Prometheus type (`unknown` when unspecified), help and unit from the series' metadata. */
  readonly type: string;
  readonly help: string;
  readonly unit: string;
}

/** A decoded `io.prometheus.write.v2.Request`. */
export interface RemoteWriteV2Batch {
  readonly series: readonly RemoteWriteV2Series[];
  readonly sampleCount: number;
  readonly histogramCount: number;
  readonly exemplarCount: number;
}

function symbol(symbols: readonly string[], ref: number, what: string): string {
  if (ref >= symbols.length) {
    throw new WireError(WireErrorCode.PROTOBUF, `protobuf: invalid io.prometheus.write.v2.Request: ${what} refers to symbol ${ref}, but there are only ${symbols.length}`);
  }
  return symbols[ref];
}

/**
 * Decodes an uncompressed `io.prometheus.write.v2.Request` and resolves every symbol reference.
 * Throws `WireError` `ERR_WIRE_PROTOBUF` for bytes that are not a valid message, for an odd
 * number of label references and for a reference outside the symbol table.
 */
export function decodeRemoteWriteV2(buf: Uint8Array): RemoteWriteV2Batch {
  let req;
  try {
    req = fromBinary(RequestSchema, buf);
  } catch (e) {
    // The generated decoder refuses invalid UTF-8 (proto3 strings) without saying where.
    const why = e instanceof TypeError ? invalidUtf8Symbol(buf) : null;
    throw new WireError(WireErrorCode.PROTOBUF, `protobuf: invalid io.prometheus.write.v2.Request: ${why ?? errorMessage(e)}`, { cause: e });
  }
  const symbols = req.symbols;
  let sampleCount = 0;
  let histogramCount = 0;
  let exemplarCount = 0;
  const series = req.timeseries.map((ts, i): RemoteWriteV2Series => {
    const refs = ts.labelsRefs;
    if (refs.length % 2 !== 0) {
      throw new WireError(WireErrorCode.PROTOBUF, `protobuf: invalid io.prometheus.write.v2.Request: series ${i} has an odd number of label references (${refs.length})`);
    }
    const labels = refs.map((ref) => symbol(symbols, ref, `series ${i}`));
    const md = ts.metadata;
    sampleCount += ts.samples.length;
    histogramCount += ts.histograms.length;
    exemplarCount += ts.exemplars.length;
    return {
      labels,
      tMs: ts.samples.map((s) => Number(s.timestamp)),
      values: ts.samples.map((s) => s.value),
      histogramCount: ts.histograms.length,
      exemplarCount: ts.exemplars.length,
      type: METRIC_TYPES[md?.type ?? 0] ?? 'unknown',
      help: md === undefined ? '' : symbol(symbols, md.helpRef, `series ${i} help`),
      unit: md === undefined ? '' : symbol(symbols, md.unitRef, `series ${i} unit`),
    };
  });
  return { series, sampleCount, histogramCount, exemplarCount };
}

const TOP_SYMBOLS = 4;
const TOP_TIMESERIES = 5;
const SERIES_LABELS_REFS = 1;

/**
 * Says which label of which series holds the first symbol that is not valid UTF-8, or null when
 * no symbol is invalid (or the bytes do not walk). Only run after the decode failed: a second
 * walk over the symbols and the label references.
 */
function invalidUtf8Symbol(buf: Uint8Array): string | null {
  try {
    const r = new ProtoReader(buf);
    let bad = -1;
    let badAt = -1;
    let nSymbols = 0;
    const series: [start: number, end: number][] = [];
    while (r.pos < r.len) {
      const [no, wt] = r.tag();
      if (no === TOP_SYMBOLS && wt === WireType.LengthDelimited) {
        const at = r.pos;
        if (r.utf8String() === null && bad < 0) {
          bad = nSymbols;
          badAt = at;
        }
        nSymbols++;
      } else if (no === TOP_TIMESERIES && wt === WireType.LengthDelimited) {
        const end = r.subEnd();
        series.push([r.pos, end]);
        r.pos = end;
      } else r.skipField(wt, no);
    }
    if (bad < 0) return null;
    r.pos = badAt;
    const end = r.subEnd();
    const shown = JSON.stringify(r.lossyString(r.pos, Math.min(end, r.pos + 64)));
    const symbols = (i: number): string | null => symbolAt(buf, i);
    for (let i = 0; i < series.length; i++) {
      const refs = labelRefs(r, series[i][0], series[i][1]);
      const k = refs.indexOf(bad);
      if (k < 0) continue;
      if (k % 2 === 0) return `series ${i}: label name ${shown} is not valid UTF-8`;
      return `series ${i}: the value of label ${JSON.stringify(symbols(refs[k - 1]) ?? '?')} (${shown}) is not valid UTF-8`;
    }
    return `symbol ${bad} (${shown}) is not valid UTF-8`;
  } catch {
    return null;
  }
}

/** The label references of the `TimeSeries` spanning `[start, end)`, packed or not. */
function labelRefs(r: ProtoReader, start: number, end: number): number[] {
  const refs: number[] = [];
  r.pos = start;
  while (r.pos < end) {
    const [no, wt] = r.tag();
    if (no === SERIES_LABELS_REFS && wt === WireType.LengthDelimited) {
      const e = r.subEnd();
      while (r.pos < e) refs.push(r.uint32());
    } else if (no === SERIES_LABELS_REFS && wt === WireType.Varint) refs.push(r.uint32());
    else r.skipField(wt, no);
  }
  return refs;
}

/** Symbol `i` decoded (null when invalid or absent). */
function symbolAt(buf: Uint8Array, i: number): string | null {
  const r = new ProtoReader(buf);
  let n = 0;
  while (r.pos < r.len) {
    const [no, wt] = r.tag();
    if (no === TOP_SYMBOLS && wt === WireType.LengthDelimited) {
      if (n++ === i) return r.utf8String();
      r.pos = r.subEnd();
    } else r.skipField(wt, no);
  }
  return null;
}

/** A remote write 2.0 series to encode. */
export interface RemoteWriteV2Input {
  readonly labels: readonly (readonly [name: string, value: string])[];
  readonly samples: readonly { readonly tMs: number; readonly value: number }[];
  readonly type?: string;
  readonly help?: string;
  readonly unit?: string;
}

/** Encodes an uncompressed `io.prometheus.write.v2.Request`, building its symbol table ("" first). */
export function encodeRemoteWriteV2(series: readonly RemoteWriteV2Input[]): Uint8Array {
  const symbols = [''];
  const index = new Map<string, number>([['', 0]]);
  const ref = (s: string): number => {
    let i = index.get(s);
    if (i === undefined) {
      i = symbols.length;
      symbols.push(s);
      index.set(s, i);
    }
    return i;
  };
  const timeseries = series.map((s) => ({
    labelsRefs: s.labels.flatMap(([n, v]) => [ref(n), ref(v)]),
    samples: s.samples.map((x) => ({ value: x.value, timestamp: BigInt(x.tMs) })),
    metadata: {
      type: Math.max(0, METRIC_TYPES.indexOf(s.type ?? 'unknown')),
      helpRef: ref(s.help ?? ''),
      unitRef: ref(s.unit ?? ''),
    },
  }));
  return toBinary(RequestSchema, create(RequestSchema, { symbols, timeseries }));
}
