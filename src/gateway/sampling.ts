/**
 * The sampling hook: a configurable share of requests is handed, with prompt, response, timings
 * and labels, to a `SampleSink`, the output port the gateway declares (the quality module binds
 * it to its store and evaluators; here a JSON-lines file sink is provided). Redaction rules (RE2,
 * the one implementation in src/model) run on every text before the sample leaves the request
 * path, and texts are capped in length.
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { compileRedaction, mulberry32, type Logger, type UnixMs } from '../model/index.js';
import type { GatewayConfig } from './config.js';

/** One sampled request, as handed to a sink. */
export interface GatewaySample {
  readonly tMs: UnixMs;
  readonly model: string;
  readonly stream: boolean;
  readonly status: number;
  /** The replica's identity labels (empty when the request reached none). */
  readonly labels: Readonly<Record<string, string>>;
  /** The request body with every string redacted (and capped). */
  readonly request: unknown;
  readonly response: { readonly text: string; readonly finishReasons: readonly string[]; readonly error: string | null };
  readonly usage: { readonly promptTokens: number; readonly completionTokens: number; readonly estimated: boolean } | null;
  /** Seconds; null where not applicable (no TTFT on a non-streaming answer). */
  readonly timings: { readonly ttftS: number | null; readonly e2eS: number; readonly modelS: number | null; readonly overheadS: number | null; readonly chunks: number; readonly meanItlS: number | null };
}

/** The port: receives samples. `write` must not block or throw; `close` flushes. */
export interface SampleSink {
  write(sample: GatewaySample): void;
  close(): Promise<void>;
}

/** Decides which requests are sampled and redacts what they carry. */
export class Sampler {
  private readonly random: () => number;
  private readonly redactRules: (text: string) => string;

  /** From the `sampling` section of the configuration. */
  constructor(private readonly cfg: GatewayConfig['sampling']) {
    this.random = mulberry32(cfg.seed);
    this.redactRules = compileRedaction(cfg.redact);
  }

  /** Whether the next request is sampled. */
  pick(): boolean {
    return this.cfg.rate > 0 && (this.cfg.rate >= 1 || this.random() < this.cfg.rate);
  }

  /** Applies every redaction rule (RE2, src/model's `compileRedaction`), then the length cap. */
  redact(text: string): string {
    const out = this.redactRules(text);
    return out.length > this.cfg.maxTextChars ? `${out.slice(0, this.cfg.maxTextChars)}…` : out;
  }

  /** A copy of a JSON value with every string redacted. */
  redactValue(v: unknown, depth = 0): unknown {
    if (typeof v === 'string') return this.redact(v);
    if (depth > 32 || typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) return v.map((x) => this.redactValue(x, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = this.redactValue(x, depth + 1);
    return out;
  }
}

/**
 * Appends samples to a file, one JSON object per line. Writes are queued on a stream; when more
 * than `maxPending` bytes wait (a slow disk), new samples are dropped and counted, never buffered
 * without bound.
 */
export class JsonlFileSink implements SampleSink {
  private readonly out: WriteStream;
  /** Samples dropped because the file could not keep up. */
  dropped = 0;
  written = 0;
  private failed = false;

  /** Opens (creating directories) `path` for appending. */
  constructor(
    readonly path: string,
    private readonly logger: Logger,
    private readonly maxPending = 8 * 1024 * 1024,
  ) {
    mkdirSync(dirname(path), { recursive: true });
    this.out = createWriteStream(path, { flags: 'a' });
    this.out.on('error', (e) => {
      if (!this.failed) logger.error('gateway: writing samples failed', { path, err: e.message });
      this.failed = true;
    });
  }

  /** Queues one line. */
  write(sample: GatewaySample): void {
    if (this.failed || this.out.writableLength > this.maxPending) {
      this.dropped++;
      return;
    }
    this.out.write(`${JSON.stringify(sample)}\n`);
    this.written++;
  }

  /** Flushes and closes the file. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.failed) {
        this.out.destroy();
        resolve();
        return;
      }
      this.out.end(() => resolve());
    });
  }
}

/** A sink that keeps samples in memory (tests, embedding). */
export class MemorySampleSink implements SampleSink {
  readonly samples: GatewaySample[] = [];
  /** Keeps the sample. */
  write(sample: GatewaySample): void {
    this.samples.push(sample);
  }
  /** Nothing to flush. */
  async close(): Promise<void> {}
}
