/**
 * A remote write load written to a file before it is sent: the fleet data set at 1 s resolution,
 * every series sampled once a second, cut into snappy-compressed `prometheus.WriteRequest`s of
 * `batchSeries` series with one sample each (the shape of Prometheus' queue manager). Encoding
 * beforehand keeps the sender's CPU out of the measured window, and both receivers get the same
 * bytes.
 *
 * The protobuf is written by hand into one reused buffer: each series' `Label` fields are encoded
 * once, so a request costs a copy per series plus its sample. (protobuf-es' `toBinary` manages
 * about 10,000 samples/s here, far below the 283,000/s the load needs.) The first request is
 * decoded back with `decodeRemoteWriteV1` and compared. (It writes zero values explicitly, where
 * proto3 encoders leave them out; decoders read both alike.)
 */
import fs from 'node:fs';
import type { Labels } from '../../src/model/index.js';
import { decodeRemoteWriteV1, snappyEncode } from '../../src/wire/index.js';
import { instance, requestsPerScrape, rng, type DatasetSeries } from '../tsdb/fleet-dataset.js';

/** Where each request of the load lies in the file, and what it holds. */
export interface LoadFile {
  readonly file: string;
  readonly seconds: number;
  readonly seriesCount: number;
  /** The labels of series `j`: request `b` holds series `(b % batchesPerSecond) * batchSeries` on, in order. */
  readonly seriesLabels: readonly Labels[];
  readonly batchSeries: number;
  readonly batchesPerSecond: number;
  /** Byte offset and length of request `b` (second `Math.floor(b / batchesPerSecond)`). */
  readonly offsets: Float64Array;
  readonly lengths: Int32Array;
  /** Samples in request `b`. */
  readonly samples: Int32Array;
  readonly totalSamples: number;
  readonly rawBytes: number;
  readonly compressedBytes: number;
}

/** Options of `writeLoadFile`. */
export interface LoadOptions {
  readonly file: string;
  readonly instances: number;
  readonly seconds: number;
  readonly batchSeries: number;
  /** Timestamp of second 0; instance `i` is sampled `(i * 37) % 1000` ms into each second. */
  readonly startMs: number;
  readonly seed?: number;
}

function varintLength(v: number): number {
  let n = 1;
  while (v >= 128) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

/** Encodes the `Label` fields (field 1 of `TimeSeries`) of one series. */
function labelFields(flat: readonly string[]): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    const name = Buffer.from(flat[i]);
    const value = Buffer.from(flat[i + 1]);
    const label = Buffer.concat([Buffer.from([0x0a]), varint(name.length), name, Buffer.from([0x12]), varint(value.length), value]);
    parts.push(Buffer.from([0x0a]), varint(label.length), label);
  }
  return Buffer.concat(parts);
}

function varint(v: number): Buffer {
  const b = Buffer.alloc(varintLength(v));
  writeVarint(b, 0, v);
  return b;
}

function writeVarint(buf: Buffer, pos: number, v: number): number {
  while (v >= 128) {
    buf[pos++] = (v % 128) | 128;
    v = Math.floor(v / 128);
  }
  buf[pos++] = v;
  return pos;
}

/** A `prometheus.WriteRequest` writer over pre-encoded labels, reusing one buffer. */
class RequestWriter {
  private buf = Buffer.allocUnsafe(1 << 20);
  private pos = 0;

  reset(): void {
    this.pos = 0;
  }

  /** Appends `TimeSeries { labels, samples: [{ value, timestamp }] }` (field 1 of `WriteRequest`). */
  add(labels: Buffer, tMs: number, value: number): void {
    const sampleLen = 1 + 8 + 1 + varintLength(tMs);
    const seriesLen = labels.length + 1 + varintLength(sampleLen) + sampleLen;
    const need = 1 + varintLength(seriesLen) + seriesLen;
    if (this.pos + need > this.buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + need));
      this.buf.copy(bigger, 0, 0, this.pos);
      this.buf = bigger;
    }
    const b = this.buf;
    b[this.pos++] = 0x0a;
    this.pos = writeVarint(b, this.pos, seriesLen);
    this.pos += labels.copy(b, this.pos);
    b[this.pos++] = 0x12;
    this.pos = writeVarint(b, this.pos, sampleLen);
    b[this.pos++] = 0x09; // Sample.value, fixed64
    b.writeDoubleLE(value, this.pos);
    this.pos += 8;
    b[this.pos++] = 0x10; // Sample.timestamp, varint
    this.pos = writeVarint(b, this.pos, tMs);
  }

  bytes(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

/** Generates the load into `o.file`; returns its index. */
export function writeLoadFile(o: LoadOptions): LoadFile {
  const r = rng(o.seed ?? 11);
  const insts = Array.from({ length: o.instances }, (_, i) => ({ i, ...instance(i, r) }));
  const series: { s: DatasetSeries; inst: number; labels: Buffer; flat: readonly string[] }[] = [];
  for (const inst of insts) for (const s of inst.series) series.push({ s, inst: inst.i, labels: labelFields(s.labels.flat()), flat: s.labels.flat() });
  const batchesPerSecond = Math.ceil(series.length / o.batchSeries);
  const total = batchesPerSecond * o.seconds;
  const offsets = new Float64Array(total);
  const lengths = new Int32Array(total);
  const samples = new Int32Array(total);
  const fd = fs.openSync(o.file, 'w');
  const w = new RequestWriter();
  const requests = new Int32Array(o.instances);
  let offset = 0;
  let rawBytes = 0;
  try {
    for (let k = 0; k < o.seconds; k++) {
      // The requests each instance served in this second (a Poisson draw around its rate).
      for (const inst of insts) requests[inst.i] = requestsPerScrape(inst.rate / 15, r);
      for (let b = 0; b < batchesPerSecond; b++) {
        w.reset();
        const from = b * o.batchSeries;
        const to = Math.min(from + o.batchSeries, series.length);
        const check: { labels: [string, string][]; samples: { tMs: number; value: number }[] }[] = [];
        for (let j = from; j < to; j++) {
          const x = series[j];
          const tMs = o.startMs + k * 1000 + ((x.inst * 37) % 1000);
          const value = x.s.next(requests[x.inst], r);
          w.add(x.labels, tMs, value);
          if (k === 0 && b === 0) check.push({ labels: pairs(x.flat), samples: [{ tMs, value }] });
        }
        const raw = w.bytes();
        if (k === 0 && b === 0) checkEncoding(raw, check);
        const body = snappyEncode(raw);
        fs.writeSync(fd, body);
        const idx = k * batchesPerSecond + b;
        offsets[idx] = offset;
        lengths[idx] = body.length;
        samples[idx] = to - from;
        offset += body.length;
        rawBytes += raw.length;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  const seriesLabels = series.map((x) => x.s.labels);
  return { file: o.file, seconds: o.seconds, seriesCount: series.length, seriesLabels, batchSeries: o.batchSeries, batchesPerSecond, offsets, lengths, samples, totalSamples: series.length * o.seconds, rawBytes, compressedBytes: offset };
}

/** Throws unless `raw` decodes to exactly `want`. */
function checkEncoding(raw: Uint8Array, want: readonly { labels: [string, string][]; samples: { tMs: number; value: number }[] }[]): void {
  const got = decodeRemoteWriteV1(raw);
  const same =
    got.seriesCount === want.length &&
    want.every((w, i) => JSON.stringify(pairs(got.labels(i))) === JSON.stringify(w.labels) && got.tMs[got.sampleStart[i]] === w.samples[0].tMs && Object.is(got.values[got.sampleStart[i]], w.samples[0].value));
  if (!same) throw new Error('the hand-written remote write encoder disagrees with decodeRemoteWriteV1');
}

function pairs(flat: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out;
}
