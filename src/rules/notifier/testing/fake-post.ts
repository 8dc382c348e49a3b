/**
 * A recording fake of the notifier's HTTP port, for tests: every request is kept with the virtual
 * time it was made at, and `answer` decides each reply (a status, an error to reject with, or
 * `'hang'`: no answer until the request's signal aborts).
 */
import type { Clock, UnixMs } from '../../../model/index.js';
import type { NotifyPost, NotifyRequest } from '../http-post.js';

/** One request the fake received. */
export interface RecordedPost {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body, parsed as JSON. */
  readonly body: unknown;
  readonly atMs: UnixMs;
}

/** What the fake does with one request. */
export type FakeAnswer = number | Error | 'hang';

/** A fake `NotifyPost` and the requests it received. */
export interface FakePost {
  readonly post: NotifyPost;
  readonly calls: RecordedPost[];
  /** Requests to `url` only. */
  readonly to: (url: string) => RecordedPost[];
}

/** Builds the fake; `answer` gets each request and how many requests its URL has had (1 for the first). */
export function fakePost(clock: Clock, answer: (req: NotifyRequest, nth: number) => FakeAnswer = () => 200): FakePost {
  const calls: RecordedPost[] = [];
  const perUrl = new Map<string, number>();
  const post: NotifyPost = (req) => {
    calls.push({ url: req.url, headers: req.headers, body: JSON.parse(req.body) as unknown, atMs: clock() });
    const nth = (perUrl.get(req.url) ?? 0) + 1;
    perUrl.set(req.url, nth);
    const a = answer(req, nth);
    if (a === 'hang') {
      return new Promise((_resolve, reject) => req.signal.addEventListener('abort', () => reject(req.signal.reason as Error), { once: true }));
    }
    if (a instanceof Error) return Promise.reject(a);
    return Promise.resolve({ status: a, statusText: a === 200 ? 'OK' : 'Status', bodyPrefix: '' });
  };
  return { post, calls, to: (url) => calls.filter((c) => c.url === url) };
}
