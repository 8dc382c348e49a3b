import type { Clock, DurationMs, Logger, Timers, UnixMs } from '../../model/index.js';
import type { HttpClientConfig, ReadTextFile } from '../../config/index.js';
import type { Alert } from '../types.js';
import { requestOptions, type NotifyPost } from './http-post.js';

/** What every send loop of a notifier shares: its ports. */
export interface SendLoopDeps {
  readonly post: NotifyPost;
  readonly timers: Timers;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly readFile: ReadTextFile;
  /** Uniform in [0, 1): the jitter of the backoff (seeded by the caller). */
  readonly random: () => number;
  readonly userAgent: string;
}

/** How a failed batch is retried: the first wait, doubled after every further failure up to the cap (docs/design/notifier-backoff.md). */
export interface BackoffOptions {
  readonly initialMs: DurationMs;
  readonly maxMs: DurationMs;
}

/** 1 s, doubling to 30 s: well under the evaluator's 1 m resend, so a recovered Alertmanager hears within half of it. */
export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 30_000 };

/** One place alerts go: an Alertmanager (one discovered URL) or a webhook. */
export interface DestinationSpec {
  readonly kind: 'alertmanager' | 'webhook';
  /** The URL for an Alertmanager; the configured name for a webhook. */
  readonly name: string;
  /** Where batches are POSTed. */
  readonly url: string;
  readonly timeoutMs: DurationMs;
  readonly http: HttpClientConfig;
  /** The request body of a batch; `nowMs` is when it is sent. */
  readonly encode: (alerts: readonly Alert[], nowMs: UnixMs) => string;
  /** The most alerts the loop holds; past it the oldest are dropped. */
  readonly capacity: number;
  readonly maxBatchSize: number;
  readonly backoff: BackoffOptions;
}

/** A destination's counters, as numbers the server exposes (Prometheus' `prometheus_notifications_*` per Alertmanager). */
export interface DestinationStats {
  readonly kind: 'alertmanager' | 'webhook';
  readonly name: string;
  readonly url: string;
  /** Alerts delivered (answered 2xx). */
  readonly sent: number;
  /** Alerts in requests that failed (Prometheus 3.x counts alerts, not requests). */
  readonly errors: number;
  /** Alerts given up: queue overflow, a permanent (4xx) refusal, stale while retried, or left queued when the loop stopped. */
  readonly dropped: number;
  /** Older copies of an alert replaced by a newer one while the destination was failing (no information lost). */
  readonly superseded: number;
  readonly queueLength: number;
  /** Successful requests and their total time: the server derives a latency summary (`_count`, `_sum`). */
  readonly latencyCount: number;
  readonly latencySumMs: number;
  /** The wait before the next retry (0 while healthy). */
  readonly backoffMs: DurationMs;
  /** The last failure's reason, '' when none. */
  readonly lastError: string;
}

interface Entry {
  readonly alert: Alert;
  readonly enqueuedAtMs: UnixMs;
}

type Outcome = 'ok' | 'transient' | 'permanent';

/**
 * The send loop of one destination (Prometheus 3.x's per-Alertmanager `sendLoop`, so a slow or
 * down destination never delays another): a bounded queue, one request in flight, batches of at
 * most `maxBatchSize`. A batch that fails transiently (5xx, 429, a transport error, the timeout)
 * goes back to the head of the queue and is retried after an exponential, jittered backoff; while
 * waiting, new alerts queue behind it and nothing is sent. Before each retry the queue is
 * compacted: an older copy of an alert with a newer one queued is superseded, and a firing alert
 * whose `endsAt` has passed is stale and dropped. Memory is bounded by `capacity` whatever the
 * outage's length (docs/design/notifier-backoff.md). Single-threaded: every method runs on the
 * event loop and never blocks.
 */
export class SendLoop {
  private queue: Entry[] = [];
  private sending = false;
  private cancelRetry: (() => void) | undefined;
  private backoffMs: DurationMs = 0;
  private stopped = false;
  private inflight: AbortController | undefined;
  private counts = { sent: 0, errors: 0, dropped: 0, superseded: 0, latencyCount: 0, latencySumMs: 0 };
  private lastError = '';

  constructor(
    readonly spec: DestinationSpec,
    private readonly deps: SendLoopDeps,
  ) {}

  /** Queues alerts (the oldest are dropped past the capacity) and starts sending unless a retry is pending. */
  add(alerts: readonly Alert[]): void {
    if (this.stopped || alerts.length === 0) return;
    const now = this.deps.clock();
    for (const alert of alerts) this.queue.push({ alert, enqueuedAtMs: now });
    this.enforceCapacity(now);
    this.kick();
  }

  /** Stops sending: the pending retry is cancelled, the request in flight aborted, the queue dropped (and counted). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.cancelRetry?.();
    this.cancelRetry = undefined;
    this.inflight?.abort(new Error('notifier stopped'));
    this.drop(this.queue.length, 'send loop stopped');
    this.queue = [];
  }

  /** True while nothing is queued and no request is in flight. */
  get idle(): boolean {
    return this.queue.length === 0 && !this.sending;
  }

  /** The destination's counters now. */
  stats(): DestinationStats {
    const s = this.spec;
    return { kind: s.kind, name: s.name, url: s.url, ...this.counts, queueLength: this.queue.length, backoffMs: this.backoffMs, lastError: this.lastError };
  }

  private drop(n: number, reason: string): void {
    if (n <= 0) return;
    this.counts.dropped += n;
    this.deps.logger.warn('notifier: dropping alerts', { destination: this.spec.name, count: n, reason });
  }

  private enforceCapacity(now: UnixMs): void {
    if (this.queue.length <= this.spec.capacity) return;
    // While failing, the queue may hold copies the next retry would discard anyway: discard them
    // first, so overflow costs old copies rather than alerts with no newer copy.
    if (this.backoffMs > 0) this.compact(now);
    const over = this.queue.length - this.spec.capacity;
    if (over > 0) {
      this.queue.splice(0, over);
      this.drop(over, 'queue full');
    }
  }

  /** Drops superseded copies and stale firing alerts (see the class comment). */
  private compact(now: UnixMs): void {
    const seen = new Set<string>();
    const kept: Entry[] = [];
    let stale = 0;
    let superseded = 0;
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const e = this.queue[i];
      const key = e.alert.labels.key();
      if (seen.has(key)) {
        superseded++;
        continue;
      }
      seen.add(key);
      const wasFiring = e.alert.endsAt > e.enqueuedAtMs;
      if (wasFiring && e.alert.endsAt <= now) {
        stale++;
        continue;
      }
      kept.push(e);
    }
    this.queue = kept.reverse();
    this.counts.superseded += superseded;
    this.drop(stale, 'stale (firing alert past its endsAt)');
  }

  private kick(): void {
    if (this.sending || this.cancelRetry !== undefined || this.stopped || this.queue.length === 0) return;
    this.sending = true;
    // A microtask, so that alerts handed over in the same turn (one evaluation) share a batch.
    void Promise.resolve().then(() => this.pump());
  }

  private async pump(): Promise<void> {
    try {
      while (!this.stopped && this.cancelRetry === undefined && this.queue.length > 0) {
        const batch = this.queue.splice(0, this.spec.maxBatchSize);
        const outcome = await this.sendBatch(batch.map((e) => e.alert));
        if (this.stopped) {
          if (outcome !== 'ok') this.drop(batch.length, 'send loop stopped');
          return;
        }
        if (outcome === 'transient') {
          this.queue.unshift(...batch);
          this.scheduleRetry();
          this.enforceCapacity(this.deps.clock());
          return;
        }
        // The destination answered: it is up, whatever it said about this batch.
        this.backoffMs = 0;
        if (outcome === 'permanent') this.drop(batch.length, 'refused by the destination');
      }
    } finally {
      this.sending = false;
    }
  }

  private scheduleRetry(): void {
    const b = this.spec.backoff;
    this.backoffMs = this.backoffMs === 0 ? b.initialMs : Math.min(b.maxMs, this.backoffMs * 2);
    // Jitter in [½, 1) of the step, so that many Infersight nodes do not retry in step.
    const delayMs = Math.round(this.backoffMs * (0.5 + 0.5 * this.deps.random()));
    this.cancelRetry = this.deps.timers.setTimeout(() => {
      this.cancelRetry = undefined;
      if (this.stopped) return;
      this.compact(this.deps.clock());
      this.kick();
    }, delayMs);
  }

  private async sendBatch(alerts: readonly Alert[]): Promise<Outcome> {
    const { clock, timers, logger } = this.deps;
    const s = this.spec;
    const start = clock();
    const ac = new AbortController();
    this.inflight = ac;
    const cancelTimeout = timers.setTimeout(() => ac.abort(new Error(`request timed out after ${s.timeoutMs} ms`)), s.timeoutMs);
    const fail = (reason: string, outcome: Outcome): Outcome => {
      this.counts.errors += alerts.length;
      this.lastError = reason;
      logger.error('notifier: error sending alerts', { destination: s.name, url: s.url, count: alerts.length, err: reason, retry: outcome === 'transient' });
      return outcome;
    };
    try {
      const { authorization, tls } = await requestOptions(s.http, this.deps.readFile);
      const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': this.deps.userAgent };
      if (authorization !== undefined) headers.Authorization = authorization;
      const res = await this.deps.post({ url: s.url, body: s.encode(alerts, start), headers, tls, followRedirects: s.http.followRedirects, signal: ac.signal });
      if (res.status >= 200 && res.status < 300) {
        this.counts.sent += alerts.length;
        this.counts.latencyCount++;
        this.counts.latencySumMs += clock() - start;
        return 'ok';
      }
      const detail = res.bodyPrefix.trim().split('\n')[0].slice(0, 200);
      const reason = `bad response status ${res.status} ${res.statusText}`.trimEnd() + (detail === '' ? '' : `: ${detail}`);
      // 5xx and 429 say "later"; any other status says this request will never be accepted.
      return fail(reason, res.status >= 500 || res.status === 429 ? 'transient' : 'permanent');
    } catch (e) {
      const err = ac.signal.aborted ? (ac.signal.reason as Error) : e;
      return fail(`Post "${s.url}": ${err instanceof Error ? err.message : String(err)}`, 'transient');
    } finally {
      cancelTimeout();
      this.inflight = undefined;
    }
  }
}
