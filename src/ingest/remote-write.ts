import { noopLogger, systemClock, type Clock, type Logger } from '../model/index.js';
import type { Appendable } from '../storage/index.js';
import {
  REMOTE_WRITE_V1_PROTO,
  REMOTE_WRITE_V2_PROTO,
  WireErrorCode,
  isWireError,
  decodeRemoteWriteV1,
  decodeRemoteWriteV2,
  snappyDecode,
  type RemoteWriteV1Batch,
  type RemoteWriteV2Batch,
} from '../wire/index.js';
import { SampleBatch, writeBatch } from './batch.js';
import { CardinalityTracker } from './cardinality.js';
import { IngestError, IngestErrorCode } from './errors.js';
import { DEFAULT_INGEST_LIMITS, type IngestLimits } from './limits.js';
import { errorResponse, header, type IngestRequest, type IngestResponse } from './response.js';
import { RequestSeries, SeriesCache, SeriesEntry, labelsFromPairs } from './series.js';

/** Options of `RemoteWriteReceiver`. */
export interface RemoteWriteReceiverOptions {
  readonly limits?: Partial<IngestLimits>;
  /** Shared with the other receivers of the server (they write the same store); one of its own otherwise. */
  readonly tracker?: CardinalityTracker;
  readonly clock?: Clock;
  readonly logger?: Logger;
}

const PROTOBUF = 'application/x-protobuf';
const V2_WRITTEN = ['X-Prometheus-Remote-Write-Samples-Written', 'X-Prometheus-Remote-Write-Histograms-Written', 'X-Prometheus-Remote-Write-Exemplars-Written'];

/**
 * The message a remote write request carries, negotiated from its Content-Type as Prometheus
 * does (`storage/remote/write_handler.go`): a missing header means 1.0; the media type must be
 * `application/x-protobuf`; a `proto` parameter picks 1.0 (`prometheus.WriteRequest`) or 2.0
 * (`io.prometheus.write.v2.Request`). Throws `ERR_INGEST_UNSUPPORTED_MEDIA_TYPE` otherwise.
 */
export function remoteWriteProto(contentType: string): 'v1' | 'v2' {
  const ct = contentType.trim() === '' ? PROTOBUF : contentType.trim();
  const parts = ct.split(';');
  if (parts[0].trim().toLowerCase() !== PROTOBUF) {
    throw new IngestError(IngestErrorCode.UNSUPPORTED_MEDIA_TYPE, `expected ${PROTOBUF} as the first (media) part, got ${ct} content-type`);
  }
  for (const p of parts.slice(1)) {
    const pair = p.split('=');
    if (pair.length !== 2) throw new IngestError(IngestErrorCode.UNSUPPORTED_MEDIA_TYPE, `expected parameters to be key-values, got ${p} in ${ct} content-type`);
    if (pair[0].trim() !== 'proto') continue;
    const proto = pair[1].trim();
    if (proto === REMOTE_WRITE_V1_PROTO) return 'v1';
    if (proto === REMOTE_WRITE_V2_PROTO) return 'v2';
    throw new IngestError(IngestErrorCode.UNSUPPORTED_MEDIA_TYPE, `got ${ct} content type; unknown remote write protobuf message ${proto}, supported: ${REMOTE_WRITE_V1_PROTO}, ${REMOTE_WRITE_V2_PROTO}`);
  }
  return 'v1';
}

/**
 * Prometheus' remote write receiver (1.0 and 2.0) over an `Appendable`, free of any HTTP
 * framework: `handle` takes the body as sent and the headers, and answers a status, headers and
 * a body.
 *
 * - Negotiation: see `remoteWriteProto`; `Content-Encoding` must be `snappy` or absent (415).
 * - Success: 204 (2.0 adds the `X-Prometheus-Remote-Write-*-Written` headers, on every answer).
 * - Refusals (nothing of the request is written): 400 for a body that does not decode (invalid
 *   UTF-8 included), invalid labels, native histograms, timestamps over 10 minutes ahead, a
 *   limit (series, labels per series, label name and value lengths), and the storage's
 *   out-of-order, duplicate, out-of-bounds and too-old errors; 413 for a body over the size limit.
 *   A 5xx only when a retry can succeed: 503 while the store is not open or cannot write.
 * - Unlike Prometheus, 2.0 requests are all-or-nothing too, and invalid series refuse the request
 *   instead of being dropped silently (docs/errors.md, footnote 1). Metadata and exemplars are
 *   decoded and ignored.
 * - Memory: the series cache is bounded in bytes (`limits.seriesCacheBytes`) and takes a request's
 *   new series only after its commit succeeded.
 */
export class RemoteWriteReceiver {
  private readonly limits: IngestLimits;
  private readonly tracker: CardinalityTracker;
  private readonly clock: Clock;
  private readonly logger: Logger;
  /**
   * One cache for both protocols: a 1.0 key (the encoded `Label` fields) starts with the field's
   * tag byte 0x0a, a 2.0 key (length-prefixed strings) with a digit, so they never collide.
   */
  private readonly cache: SeriesCache;

  constructor(
    private readonly appendable: Appendable,
    options: RemoteWriteReceiverOptions = {},
  ) {
    this.limits = { ...DEFAULT_INGEST_LIMITS, ...options.limits };
    this.tracker = options.tracker ?? new CardinalityTracker(this.limits.maxSeriesPerMetric, this.limits.cardinalityWindowMs, this.limits.maxSeries);
    this.cache = new SeriesCache(this.limits.seriesCacheBytes);
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? noopLogger;
  }

  /** The estimated memory of the series cache, in bytes (at most `limits.seriesCacheBytes`). */
  get cacheBytes(): number {
    return this.cache.bytes;
  }

  /** Handles one request; never throws (every failure becomes an answer). */
  async handle(req: IngestRequest): Promise<IngestResponse> {
    let proto: 'v1' | 'v2' = 'v1';
    const written = [0, 0, 0];
    const v2Headers = (): Record<string, string> => (proto === 'v2' ? Object.fromEntries(V2_WRITTEN.map((h, i) => [h, String(written[i])])) : {});
    try {
      proto = remoteWriteProto(header(req.headers, 'content-type'));
      const enc = header(req.headers, 'content-encoding');
      if (enc !== '' && enc !== 'snappy') {
        throw new IngestError(IngestErrorCode.UNSUPPORTED_MEDIA_TYPE, `${enc} encoding (compression) is not accepted by this server; only snappy is acceptable`);
      }
      if (req.body.length > this.limits.maxBodyBytes) {
        throw new IngestError(IngestErrorCode.BODY_TOO_LARGE, `request body of ${req.body.length} bytes is over the limit of ${this.limits.maxBodyBytes} bytes`);
      }
      const raw = this.decompress(req.body);
      const series = new RequestSeries(this.cache);
      const batch = proto === 'v1' ? this.batchV1(decodeRemoteWriteV1(raw), series) : this.batchV2(decodeRemoteWriteV2(raw), series);
      await writeBatch(batch, { appendable: this.appendable, limits: this.limits, tracker: this.tracker, clock: this.clock });
      // Only now: a refused request must leave nothing in the cache.
      series.admit();
      written[0] = batch.size;
      return { status: 204, headers: v2Headers(), body: '' };
    } catch (e) {
      return errorResponse(e, this.logger, 'remote write', v2Headers());
    }
  }

  private decompress(body: Uint8Array): Uint8Array {
    try {
      return snappyDecode(body, this.limits.maxBodyBytes);
    } catch (e) {
      if (isWireError(e, WireErrorCode.TOO_LARGE)) throw new IngestError(IngestErrorCode.BODY_TOO_LARGE, e.message, { cause: e });
      throw e;
    }
  }

  private batchV1(req: RemoteWriteV1Batch, series: RequestSeries): SampleBatch {
    if (req.histogramCount > 0) throw nativeHistograms(req.histogramCount);
    const batch = new SampleBatch();
    const { tMs, values, sampleStart, labelKeys } = req;
    for (let i = 0; i < req.seriesCount; i++) {
      const from = sampleStart[i];
      const to = sampleStart[i + 1];
      if (from === to) continue;
      const key = labelKeys[i];
      let entry = series.get(key);
      if (entry === undefined) {
        entry = new SeriesEntry(labelsFromPairs(req.labels(i), this.limits));
        series.add(key, entry);
      }
      for (let k = from; k < to; k++) batch.add(entry, tMs[k], values[k]);
    }
    return batch;
  }

  private batchV2(req: RemoteWriteV2Batch, series: RequestSeries): SampleBatch {
    if (req.histogramCount > 0) throw nativeHistograms(req.histogramCount);
    const batch = new SampleBatch();
    for (const s of req.series) {
      if (s.tMs.length === 0) continue;
      // Length-prefixed, so that no two different label lists share a key.
      const key = s.labels.map((x) => `${x.length}:${x}`).join('');
      let entry = series.get(key);
      if (entry === undefined) {
        entry = new SeriesEntry(labelsFromPairs(s.labels, this.limits));
        series.add(key, entry);
      }
      for (let k = 0; k < s.tMs.length; k++) batch.add(entry, s.tMs[k], s.values[k]);
    }
    return batch;
  }
}

function nativeHistograms(n: number): IngestError {
  return new IngestError(
    IngestErrorCode.INVALID_SAMPLE,
    `the request carries ${n} native histogram sample(s); Infersight cannot store native histograms yet (send classic histograms: turn off native histograms in the sender's remote_write config)`,
  );
}
