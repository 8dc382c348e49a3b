import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { noopLogger, systemClock, type Clock, type Logger } from '../../model/index.js';
import type { Appendable } from '../../storage/index.js';
import { OTLP_CONTENT_TYPES, RPC_CODE, decodeOtlpMetrics, encodeOtlpMetricsResponse, encodeOtlpStatus, type OtlpEncoding } from '../../wire/index.js';
import { writeBatch } from '../batch.js';
import { CardinalityTracker } from '../cardinality.js';
import { IngestError, IngestErrorCode } from '../errors.js';
import { DEFAULT_INGEST_LIMITS, type IngestLimits } from '../limits.js';
import { errorResponse, header, refusal, type IngestRequest, type IngestResponse } from '../response.js';
import { RequestSeries, SeriesCache } from '../series.js';
import { DeltaAccumulator } from './delta.js';
import { translateOtlp, type TranslateOptions } from './translate.js';

const gunzip = promisify(zlib.gunzip);

/** Options of `OtlpReceiver`. */
export interface OtlpReceiverOptions {
  readonly limits?: Partial<IngestLimits>;
  /** Shared with the other receivers of the server; one of its own otherwise. */
  readonly tracker?: CardinalityTracker;
  /** Resource attributes to copy onto every series (default none, as in Prometheus). */
  readonly promoteResourceAttributes?: readonly string[];
  /** Write `target_info` series for resources (default true). */
  readonly targetInfo?: boolean;
  /** How long the running total of a delta series is kept without new points (default 1 h). */
  readonly deltaStateTtlMs?: number;
  readonly clock?: Clock;
  readonly logger?: Logger;
}

/** The payload encoding for a Content-Type, or an `ERR_INGEST_UNSUPPORTED_MEDIA_TYPE` error. */
export function otlpEncoding(contentType: string): OtlpEncoding {
  const media = contentType.split(';')[0].trim().toLowerCase();
  if (media === OTLP_CONTENT_TYPES.protobuf) return 'protobuf';
  if (media === OTLP_CONTENT_TYPES.json) return 'json';
  throw new IngestError(
    IngestErrorCode.UNSUPPORTED_MEDIA_TYPE,
    `unsupported content type: ${JSON.stringify(contentType)}, supported: [${OTLP_CONTENT_TYPES.json}, ${OTLP_CONTENT_TYPES.protobuf}]`,
  );
}

/**
 * The OTLP/HTTP metrics receiver (`POST /v1/metrics`) over an `Appendable`, free of any HTTP
 * framework. Protobuf and JSON bodies, plain or gzip-compressed. Translation follows
 * Prometheus' OTLP rules (see docs/ingest.md); delta sums and histograms are accumulated into
 * cumulative series.
 *
 * - Success: 200 with an `ExportMetricsServiceResponse` in the request's encoding; data points
 *   that cannot be stored (exponential histograms, metrics without temporality, names that
 *   cannot be translated) are refused through OTLP's `partial_success`, the rest is written.
 * - Refusals (nothing written): 415 for another content type or encoding, 413 over the size
 *   limit, 400 for a body that does not decode (invalid UTF-8 included), a limit (series, labels
 *   per series, label name and value lengths), a timestamp over 10 minutes ahead and the
 *   storage's out-of-order, duplicate, out-of-bounds and too-old errors; 503 while the store is
 *   not open or cannot write (OTLP senders retry 503). Error bodies are OTLP's: a
 *   `google.rpc.Status` in the request's encoding (plain text only when the content type itself
 *   is not one OTLP knows).
 * - Requests are handled one at a time, so that running delta totals stay consistent.
 */
export class OtlpReceiver {
  private readonly limits: IngestLimits;
  private readonly tracker: CardinalityTracker;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly translate: TranslateOptions;
  private readonly cache: SeriesCache;
  private readonly delta: DeltaAccumulator;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly appendable: Appendable,
    options: OtlpReceiverOptions = {},
  ) {
    this.limits = { ...DEFAULT_INGEST_LIMITS, ...options.limits };
    this.tracker = options.tracker ?? new CardinalityTracker(this.limits.maxSeriesPerMetric, this.limits.cardinalityWindowMs, this.limits.maxSeries);
    this.cache = new SeriesCache(this.limits.seriesCacheBytes);
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? noopLogger;
    this.translate = { promoteResourceAttributes: options.promoteResourceAttributes ?? [], targetInfo: options.targetInfo ?? true };
    this.delta = new DeltaAccumulator(options.deltaStateTtlMs ?? 60 * 60 * 1000);
  }

  /** The number of delta series whose running totals are kept. */
  get deltaSeries(): number {
    return this.delta.size;
  }

  /** The estimated memory of the series cache, in bytes (at most `limits.seriesCacheBytes`). */
  get cacheBytes(): number {
    return this.cache.bytes;
  }

  /** Handles one request; never throws (every failure becomes an answer). */
  async handle(req: IngestRequest): Promise<IngestResponse> {
    let encoding: OtlpEncoding;
    let body: Uint8Array;
    try {
      encoding = otlpEncoding(header(req.headers, 'content-type'));
    } catch (e) {
      return errorResponse(e, this.logger, 'OTLP write');
    }
    try {
      if (req.body.length > this.limits.maxBodyBytes) {
        throw new IngestError(IngestErrorCode.BODY_TOO_LARGE, `request body of ${req.body.length} bytes is over the limit of ${this.limits.maxBodyBytes} bytes`);
      }
      body = await this.decompress(req.body, header(req.headers, 'content-encoding').trim().toLowerCase());
    } catch (e) {
      return this.refuse(e, encoding);
    }
    const run = this.queue.then(() => this.write(body, encoding));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async decompress(body: Uint8Array, encoding: string): Promise<Uint8Array> {
    if (encoding === '' || encoding === 'identity') return body;
    if (encoding !== 'gzip') {
      throw new IngestError(IngestErrorCode.UNSUPPORTED_MEDIA_TYPE, `${encoding} encoding (compression) is not accepted by this server; use gzip or none`);
    }
    try {
      return await gunzip(body, { maxOutputLength: this.limits.maxBodyBytes });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ERR_BUFFER_TOO_LARGE') throw new IngestError(IngestErrorCode.BODY_TOO_LARGE, `decompressed body is over the limit of ${this.limits.maxBodyBytes} bytes`);
      throw new IngestError(IngestErrorCode.MALFORMED_REQUEST, `gzip: invalid body: ${(e as Error).message}`, { cause: e });
    }
  }

  private async write(body: Uint8Array, encoding: OtlpEncoding): Promise<IngestResponse> {
    try {
      const req = decodeOtlpMetrics(body, encoding);
      const txn = this.delta.begin(this.clock());
      const series = new RequestSeries(this.cache);
      const t = translateOtlp(req, { ...this.translate, limits: this.limits }, series, txn);
      await writeBatch(t.batch, { appendable: this.appendable, limits: this.limits, tracker: this.tracker, clock: this.clock });
      txn.commit();
      series.admit();
      let rejected: { dataPoints: number; message: string } | undefined;
      if (t.rejectedPoints > 0 || t.rejectReasons.length > 0) {
        rejected = { dataPoints: t.rejectedPoints, message: t.rejectReasons.join('; ') };
        this.logger.warn('OTLP write: data points refused', { rejected: t.rejectedPoints, err: rejected.message });
      }
      return { status: 200, headers: { 'Content-Type': OTLP_CONTENT_TYPES[encoding] }, body: encodeOtlpMetricsResponse(encoding, rejected) };
    } catch (e) {
      return this.refuse(e, encoding);
    }
  }

  /** A refusal as OTLP/HTTP answers one: a `google.rpc.Status` body in the request's encoding. */
  private refuse(e: unknown, encoding: OtlpEncoding): IngestResponse {
    const { status, message } = refusal(e, this.logger, 'OTLP write');
    const code = status === 503 ? RPC_CODE.UNAVAILABLE : status >= 500 ? RPC_CODE.INTERNAL : RPC_CODE.INVALID_ARGUMENT;
    return { status, headers: { 'Content-Type': OTLP_CONTENT_TYPES[encoding] }, body: encodeOtlpStatus(encoding, code, message) };
  }
}
