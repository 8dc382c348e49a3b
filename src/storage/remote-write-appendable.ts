/**
 * A minimal Prometheus remote-write 1.0 `Appendable` for `infersight gateway`: each commit sends
 * its batch as one snappy-compressed `WriteRequest` and resolves when the receiver answered 2xx.
 * No queue, no retries, no sharding: a failed commit rejects (`ERR_STORAGE_UNAVAILABLE`) and the
 * caller's next batch carries the current values again, which is all a producer of cumulative
 * counters needs (the gateway). The full remote-write appender of the scale-out work (queues,
 * retries, sharding, metadata) will grow from here.
 */
import type { Labels } from '../model/index.js';
import { encodeRemoteWriteV1, snappyEncode, type RemoteWriteV1Series } from '../wire/index.js';
import type { Appendable, Appender } from './appender.js';
import { StorageError, StorageErrorCode } from './errors.js';

/** Options of `RemoteWriteAppendable`. */
export interface RemoteWriteAppendableOptions {
  /** How long one send may take (default 30 s). */
  readonly timeoutMs?: number;
  /** Extra request headers (authorization). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch to use (tests). */
  readonly fetch?: typeof fetch;
}

/** Sends committed batches to a remote-write endpoint (`http://host:port/api/v1/write`). */
export class RemoteWriteAppendable implements Appendable {
  private readonly refs = new Map<number, Labels>();
  private nextRef = 1;

  constructor(
    readonly url: string,
    private readonly o: RemoteWriteAppendableOptions = {},
  ) {}

  appender(): Appender {
    const series = new Map<Labels, { tMs: number; value: number }[]>();
    let closed = false;
    const check = (): void => {
      if (closed) throw new StorageError(StorageErrorCode.APPENDER_CLOSED, 'remote write: the appender was already committed or rolled back');
    };
    return {
      append: (ref, labels, tMs, value) => {
        check();
        const l = (ref !== 0 ? this.refs.get(ref) : undefined) ?? labels;
        if (l.metricName === '') throw new StorageError(StorageErrorCode.INVALID_LABELS, 'remote write: a series needs a metric name');
        if (!Number.isSafeInteger(tMs)) throw new StorageError(StorageErrorCode.INVALID_TIMESTAMP, `remote write: invalid timestamp ${tMs}`);
        let list = series.get(l);
        if (list === undefined) series.set(l, (list = []));
        list.push({ tMs, value });
        if (ref !== 0 && this.refs.has(ref)) return ref;
        const r = this.nextRef++;
        this.refs.set(r, l);
        return r;
      },
      commit: async () => {
        check();
        closed = true;
        if (series.size === 0) return;
        const out: RemoteWriteV1Series[] = [];
        for (const [l, samples] of series) {
          const pairs: [string, string][] = [];
          l.forEach((n, v) => pairs.push([n, v]));
          out.push({ labels: pairs, samples });
        }
        const body = snappyEncode(encodeRemoteWriteV1(out));
        let res: Response;
        try {
          res = await (this.o.fetch ?? fetch)(this.url, {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy', 'X-Prometheus-Remote-Write-Version': '0.1.0', ...this.o.headers },
            body,
            signal: AbortSignal.timeout(this.o.timeoutMs ?? 30_000),
          });
        } catch (e) {
          throw new StorageError(StorageErrorCode.UNAVAILABLE, `remote write to ${this.url} failed: ${(e as Error).message}`, { cause: e });
        }
        const text = await res.text();
        if (!res.ok) throw new StorageError(StorageErrorCode.UNAVAILABLE, `remote write to ${this.url}: ${res.status} ${text.slice(0, 200)}`);
      },
      rollback: () => {
        check();
        closed = true;
      },
    };
  }
}
