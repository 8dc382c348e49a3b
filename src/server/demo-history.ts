/**
 * The demo's history: before `infersight demo` goes live on a fresh data directory, it simulates
 * the last few hours in virtual time, as fast as the work allows, and writes them into the store
 * through the same scrape pipeline as live scraping — the demo's own scrape configuration, target
 * labels from its file_sd file, relabeling, `up` and `scrape_*` series, staleness markers, the
 * normalizing appendable. Only the transport and the clock differ: a `ScrapeManager` on virtual
 * timers (the model's VirtualTimers) whose fetch renders each simulated target in-process, stamped with
 * virtual time, which during the replay is wall time at speed 1. Once the simulation has caught up
 * with the wall clock the replay's scrapers stop (writing no staleness markers: the same series
 * go on) and the simulation goes live from its state; live scraping then starts at a later scrape
 * slot, so no sample is duplicated or out of order. docs/design/virtual-time.md has the reasons.
 *
 * This module composes `sim` and `ingest`, which may not import each other; src/server may.
 */
import { STATUS_CODES } from 'node:http';
import { resolve } from 'node:path';
import { VirtualTimers, type Clock, type DurationMs, type Labels, type Logger, type UnixMs } from '../model/index.js';
import { nodeFileSdFs, type FileSdFs } from '../config/index.js';
import { ScrapeManager, type ScrapeConfigFile, type ScrapeFetch } from '../ingest/index.js';
import type { QueryClient } from '../query/index.js';
import type { RunningSimulation } from '../sim/index.js';
import type { Appendable, Appender, SeriesRef } from '../storage/index.js';

/** How far the replay has come, for a progress line. */
export interface HistoryProgress {
  /** Virtual time replayed so far and in all (the end moves with the wall clock while the replay runs). */
  readonly replayedMs: DurationMs;
  readonly totalMs: DurationMs;
  /** Samples written so far. */
  readonly samples: number;
  /** Wall-clock time the replay has taken so far. */
  readonly elapsedMs: DurationMs;
}

/** What a finished replay did. */
export interface HistoryReport {
  /** The replayed span: virtual (= wall-clock) start and end. */
  readonly startMs: UnixMs;
  readonly endMs: UnixMs;
  /** Scrapes made, samples appended, wall-clock time taken. */
  readonly scrapes: number;
  readonly samples: number;
  readonly elapsedMs: DurationMs;
  /**
   * Virtual time simulated without scrapes after `endMs` because the replay ran at less than
   * `MIN_CHASE_PACE` times real time and would not have caught up with the clock (0 normally).
   * The store has a gap of that length before live data.
   */
  readonly skippedMs: DurationMs;
}

/**
 * The seam for data derived from the metrics (recording rules, cost, drift, diagnosis, as later
 * modules add them): each deriver is called once the replayed samples are in the store and before
 * the server reports ready, with the replayed span, to compute over it what it would have computed
 * live — as Prometheus' rule backfill (`promtool tsdb create-blocks-from rules`) evaluates
 * recording rules over past data and writes their samples with past timestamps. A deriver reads
 * through `query` (evaluating at past instants) and writes through `appendable`; it must write
 * only timestamps inside the span, so live evaluation, which starts after it, never goes back.
 * The simulation is already live while derivers run, but live scraping starts only after them:
 * their run time is a gap in the scraped data, so they must be quick (batch, never per sample).
 */
export interface HistoryDeriver {
  readonly name: string;
  /**
   * Optional: called while the history is written, after each round of scrapes, with the span
   * written so far (its end moves on at every call). A deriver whose output spans more than the
   * hour the head accepts behind its newest sample (cost over a 3 h history) computes here, in
   * step with the writer and behind it, what `derive` could no longer write; it decides itself
   * how often to do work (most calls return at once). docs/design/cost-history.md.
   */
  advance?(span: { readonly startMs: UnixMs; readonly endMs: UnixMs }, ctx: { readonly appendable: Appendable; readonly query: QueryClient }): Promise<void>;
  derive(span: { readonly startMs: UnixMs; readonly endMs: UnixMs }, ctx: { readonly appendable: Appendable; readonly query: QueryClient }): Promise<void>;
}

/** Options of `replayHistory`. */
export interface HistoryReplayOptions {
  /** A manual-mode simulation whose start is the beginning of the history; it goes live at the end. */
  readonly sim: RunningSimulation;
  /** The store's ingest target, the one live scraping writes to (normalization included). */
  readonly appendable: Appendable;
  /** The scrape configuration live scraping uses (the demo's, loaded from its file). */
  readonly scrapeConfig: ScrapeConfigFile;
  /** The file_sd file that configuration reads: during the replay it is answered from the simulation's memory. */
  readonly fileSdPath: string;
  /** The wall clock: the replay runs until the simulation has caught up with it. */
  readonly clock: Clock;
  readonly logger: Logger;
  /** The host name live scraping seeds its scrape phases with, so that the replay scrapes at the same phases. */
  readonly hostname: string;
  /** Called about every `progressEveryMs` of wall time (default 1000), and once at the end. */
  readonly onProgress?: (p: HistoryProgress) => void;
  readonly progressEveryMs?: DurationMs;
  /** Derived data to compute over the replayed span (the server's: cost; see `HistoryDeriver`). */
  readonly derivers?: readonly HistoryDeriver[];
  /** Needed by the derivers. */
  readonly query?: QueryClient;
  /** Aborts the replay (the server is closing); the promise then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** Virtual time the simulation advances between two rounds of scrapes. */
const STEP_MS = 1000;

/**
 * The clock moves on while the replay runs, so the replay chases it; at P virtual seconds per
 * wall second each round shrinks the gap P-fold. Below this pace (a huge fleet with a long
 * explicit `--history`), once the wall-clock time of the replay's start is reached, the rest is
 * simulated without scrapes and left as a gap, instead of chasing the clock for ever.
 */
export const MIN_CHASE_PACE = 2;

/** An appendable that counts appended samples and appenders not yet committed or rolled back. */
class CountingAppendable implements Appendable {
  samples = 0;
  open = 0;

  constructor(private readonly inner: Appendable) {}

  appender(): Appender {
    const app = this.inner.appender();
    this.open++;
    let done = false;
    const finish = (): void => {
      if (!done) this.open--;
      done = true;
    };
    return {
      append: (ref: SeriesRef, labels: Labels, tMs: UnixMs, value: number): SeriesRef => {
        this.samples++;
        return app.append(ref, labels, tMs, value);
      },
      commit: () => app.commit().finally(finish),
      rollback: () => {
        finish();
        app.rollback();
      },
    };
  }
}

/** The scrape fetch port over the simulation's in-process rendering (`/targets/<id>/metrics`). */
function simFetch(sim: RunningSimulation): ScrapeFetch {
  return (req) => {
    const m = /^\/targets\/([^/]+)\/metrics$/.exec(new URL(req.url).pathname);
    const accept = Object.entries(req.headers).find(([k]) => k.toLowerCase() === 'accept')?.[1] ?? '';
    const r = m === null ? { status: 404, contentType: 'text/plain', body: 'not found\n' } : sim.targetMetrics(decodeURIComponent(m[1]), accept);
    const bytes = Buffer.from(r.body);
    const body: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => {
        let sent = false;
        return { next: () => Promise.resolve(sent ? { done: true, value: undefined } : ((sent = true), { done: false, value: bytes })) };
      },
    };
    return Promise.resolve({ status: r.status, statusText: STATUS_CODES[r.status] ?? '', contentType: r.contentType, body });
  };
}

/** Calls the derivers' `advance` with the span whose scrapes are written. */
async function advanceDerivers(o: HistoryReplayOptions, span: { readonly startMs: UnixMs; readonly endMs: UnixMs }): Promise<void> {
  for (const d of o.derivers ?? []) {
    if (d.advance === undefined) continue;
    if (o.query === undefined) throw new Error(`history: deriver ${d.name} needs a query client`);
    await d.advance(span, { appendable: o.appendable, query: o.query });
  }
}

/** Resolves after the microtasks queued so far have run and the event loop has had one turn (I/O, HTTP requests). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Replays the simulation from its start to the wall clock's now into `appendable`, then hands the
 * simulation over to real time (`goLive`). Holds the event loop for one scrape at a time at most:
 * every round of scrapes yields a turn, so the server answers meanwhile (`/-/ready` with 503).
 */
export async function replayHistory(o: HistoryReplayOptions): Promise<HistoryReport> {
  const { sim, clock } = o;
  const startMs = sim.simulation.nowMs;
  const wallStart = clock();
  const timers = new VirtualTimers(startMs);
  const counting = new CountingAppendable(o.appendable);
  let scrapes = 0;
  const fetch = simFetch(sim);
  const fileSdFs: FileSdFs = {
    // Compared resolved: the configuration names the file relative to its own directory.
    readFile: (file) => (resolve(file) === resolve(o.fileSdPath) ? Promise.resolve(JSON.stringify(sim.fileSdGroups())) : nodeFileSdFs.readFile(file)),
    readdir: (dir) => nodeFileSdFs.readdir(dir),
  };
  const manager = new ScrapeManager({
    appendable: counting,
    logger: o.logger,
    clock: timers.clock,
    timers,
    fetch: (req) => (scrapes++, fetch(req)),
    fileSdFs,
    // The refresh interval picks up new targets; nothing on disk changes during the replay.
    watchDirs: () => () => undefined,
    hostname: o.hostname,
  });
  const progress = (endMs: UnixMs, replayedToMs = sim.simulation.nowMs): HistoryProgress => ({ replayedMs: replayedToMs - startMs, totalMs: endMs - startMs, samples: counting.samples, elapsedMs: clock() - wallStart });
  let lastProgressMs = wallStart;
  let handoverMs: UnixMs;
  let chasing = true;
  try {
    await manager.applyConfig(o.scrapeConfig);
    for (;;) {
      o.signal?.throwIfAborted();
      const wall = clock();
      const t = sim.simulation.nowMs;
      // Scrapes due before the next tick see the state at this one, as a live scrape sees the
      // last tick before it; none is stamped at or after the wall clock, where live scraping starts.
      const end = Math.min(t + STEP_MS, wall);
      while (timers.fireNext(end) > 0) {
        await turn();
        // Everything the fired timers started is microtasks (in-process fetch, synchronous WAL
        // write); should a commit still be pending, wait for it before virtual time moves on.
        if (counting.open > 0) await manager.settled();
      }
      if (t + STEP_MS > wall) {
        handoverMs = wall;
        break;
      }
      if (t >= wallStart && (t - startMs) / Math.max(1, wall - wallStart) < MIN_CHASE_PACE) {
        handoverMs = end;
        chasing = false;
        break;
      }
      await advanceDerivers(o, { startMs, endMs: end });
      await sim.advanceTo(t + STEP_MS);
      timers.moveTo(t + STEP_MS);
      if (o.onProgress !== undefined && wall - lastProgressMs >= (o.progressEveryMs ?? 1000)) {
        lastProgressMs = wall;
        o.onProgress(progress(wall));
      }
    }
    await manager.settled();
  } finally {
    await manager.stop();
  }
  let skippedMs = 0;
  if (!chasing) {
    // Simulated without scrapes in slices, yielding between them, to the clock as it is now.
    const to = clock();
    o.logger.warn('history: the replay is slower than the clock; simulating the rest without samples', { gapSeconds: (to - handoverMs) / 1000 });
    while (sim.simulation.nowMs + STEP_MS <= to) {
      o.signal?.throwIfAborted();
      await sim.advanceTo(Math.min(to, sim.simulation.nowMs + 60 * STEP_MS));
      await turn();
    }
    skippedMs = sim.simulation.nowMs - handoverMs;
  }
  await sim.goLive();
  const span = { startMs, endMs: handoverMs };
  for (const d of o.derivers ?? []) {
    if (o.query === undefined) throw new Error(`history: deriver ${d.name} needs a query client`);
    await d.derive(span, { appendable: o.appendable, query: o.query });
  }
  const report: HistoryReport = { ...span, scrapes, samples: counting.samples, elapsedMs: clock() - wallStart, skippedMs };
  o.onProgress?.(progress(handoverMs, handoverMs));
  o.logger.info('history: replayed', { from: new Date(startMs).toISOString(), to: new Date(handoverMs).toISOString(), scrapes, samples: counting.samples, seconds: report.elapsedMs / 1000 });
  return report;
}
