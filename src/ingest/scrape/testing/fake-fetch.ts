import http from 'node:http';
import type { ScrapeFetch, ScrapeRequest, ScrapeResponse } from '../scrape-http.js';
import type { Timers } from '../timers.js';

/** What a fake target answers. */
export interface FakeAnswer {
  readonly status?: number;
  readonly contentType?: string;
  readonly contentEncoding?: string;
  readonly body?: string | Uint8Array;
  /** A body made while it is read (a huge or hostile one), instead of `body`. */
  readonly chunks?: () => Iterable<Uint8Array>;
  /** Answer only after this much fake time; with `Infinity`, never (until the scrape is aborted). */
  readonly delayMs?: number;
  /** Reject with this error instead (a connection failure). */
  readonly error?: string;
}

/**
 * A fetch port over a table of URLs, with answers delayed on the fake timers; every request is
 * recorded. An unknown URL fails like a refused connection.
 */
export class FakeFetch {
  readonly requests: ScrapeRequest[] = [];
  private readonly answers = new Map<string, FakeAnswer | ((req: ScrapeRequest) => FakeAnswer)>();

  constructor(private readonly timers: Timers) {}

  /** Sets what `url` answers from now on. */
  set(url: string, answer: FakeAnswer | ((req: ScrapeRequest) => FakeAnswer)): void {
    this.answers.set(url, answer);
  }

  readonly fetch: ScrapeFetch = (req) => {
    this.requests.push(req);
    const a = this.answers.get(req.url);
    const answer = typeof a === 'function' ? a(req) : a;
    return new Promise<ScrapeResponse>((resolve, reject) => {
      req.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      const respond = () => {
        if (answer === undefined) reject(new Error(`dial tcp ${new URL(req.url).host}: connect: connection refused`));
        else if (answer.error !== undefined) reject(new Error(answer.error));
        else {
          const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : (answer.body ?? new Uint8Array());
          resolve({
            status: answer.status ?? 200,
            statusText: http.STATUS_CODES[answer.status ?? 200] ?? '',
            contentType: answer.contentType ?? 'text/plain; version=0.0.4',
            contentEncoding: answer.contentEncoding,
            body: (async function* () {
              if (answer.chunks !== undefined) yield* answer.chunks();
              // Several chunks, as a network would deliver them.
              else for (let i = 0; i < body.length; i += 4096) yield body.subarray(i, i + 4096);
            })(),
          });
        }
      };
      const delay = answer?.delayMs ?? 0;
      if (delay === 0) respond();
      else if (Number.isFinite(delay)) this.timers.setTimeout(respond, delay);
    });
  };
}
