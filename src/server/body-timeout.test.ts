import { describe, expect, it, test } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { MemoryLogger, type DurationMs, type Timers } from '../model/index.js';
import { FakeTimers } from '../model/testing/fake-timers.js';
import { tempDir } from '../tsdb/testing/temp-dir.js';
import { startServer } from './serve.js';
import { rawClient } from '../http/testing/raw-client.js';

const NOW = 1_764_547_200_000;
const TIMEOUTS = { idleMs: 1_000, totalMs: 5_000 };

/**
 * Fake timers that say how the body reader uses them: it arms two timers when it starts (idle and
 * total) and re-arms the idle one on every chunk, so `armed(2 + k)` means "k chunks arrived", and
 * it cancels everything once it settles. Only body reads use these timers.
 */
class WatchedTimers implements Timers {
  readonly fake = new FakeTimers(0);
  private arms = 0;
  private live = 0;
  private readonly waiters: { ok: () => boolean; resolve: () => void }[] = [];

  setTimeout(fn: () => void, delayMs: DurationMs): () => void {
    this.arms++;
    this.live++;
    let cancelled = false;
    const cancel = this.fake.setTimeout(() => {
      cancelled = true;
      this.live--;
      fn();
      this.wake();
    }, delayMs);
    this.wake();
    return () => {
      if (cancelled) return;
      cancelled = true;
      this.live--;
      cancel();
      this.wake();
    };
  }

  /** Resolves once the reader has armed `n` timers in all. */
  armed(n: number): Promise<void> {
    return this.until(() => this.arms >= n);
  }

  /** Resolves once no timer is live (the reader settled). */
  idle(): Promise<void> {
    return this.until(() => this.arms > 0 && this.live === 0);
  }

  private until(ok: () => boolean): Promise<void> {
    if (ok()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ ok, resolve }));
  }

  private wake(): void {
    for (const w of this.waiters.filter((x) => x.ok())) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve();
    }
  }
}

const cleanups = useCleanups();

async function start() {
  const t = tempDir('body-timeout');
  cleanups.push(t.remove);
  const logger = new MemoryLogger();
  const timers = new WatchedTimers();
  const server = await startServer({ listen: '127.0.0.1:0', storage: { dir: t.dir, fsync: { mode: 'never' } }, logger, clock: () => NOW, bodyRead: { timers, timeouts: TIMEOUTS } });
  cleanups.push(() => server.close());
  await server.ready;
  return { logger, timers, port: server.http.address.port };
}

const head = (path: string, type: string, length: number) => `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;
const FORM = 'application/x-www-form-urlencoded';
const PROTO = 'application/x-protobuf';

// Each endpoint answers a stalled body with 408 in its own documented error format.
const ENDPOINTS = [
  { path: '/api/v1/query', type: FORM, answer: /^HTTP\/1\.1 408 [^]*Content-Type: application\/json[^]*Connection: close[^]*\{"status":"error","errorType":"bad_data","error":"error parsing form values: the request body stalled: no byte for 1000 ms"\}$/ },
  { path: '/api/v1/series', type: FORM, answer: /^HTTP\/1\.1 408 [^]*"errorType":"bad_data"/ },
  { path: '/federate', type: FORM, answer: /^HTTP\/1\.1 408 [^]*Content-Type: text\/plain[^]*\r\n\r\nerror parsing form values: the request body stalled: no byte for 1000 ms\n$/ },
  { path: '/api/v1/write', type: PROTO, answer: /^HTTP\/1\.1 408 [^]*Content-Type: text\/plain[^]*Connection: close[^]*\r\n\r\nthe request body stalled: no byte for 1000 ms\n$/ },
  { path: '/api/v1/otlp/v1/metrics', type: PROTO, answer: /^HTTP\/1\.1 408 [^]*Content-Type: text\/plain[^]*\r\n\r\nthe request body stalled: no byte for 1000 ms\n$/ },
];

describe('slow request bodies', () => {
  test.each(ENDPOINTS)('$path answers a stalled body with 408 after the idle timeout, not before', async ({ path, type, answer }) => {
    const { timers, port, logger } = await start();
    const c = rawClient(port);
    c.write(head(path, type, 100) + 'query=up');
    await timers.armed(3);
    await timers.fake.advance(TIMEOUTS.idleMs - 1);
    let answered = false;
    void c.answer.then(() => (answered = true));
    await timers.fake.advance(0);
    expect(answered).toBe(false);
    await timers.fake.advance(1);
    expect(await c.answer).toMatch(answer);
    expect(logger.lines.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('answers a body that trickles inside the idle timeout with 408 at the total timeout', async () => {
    const { timers, port } = await start();
    const c = rawClient(port);
    c.write(head('/api/v1/write', PROTO, 100));
    for (let k = 1; k <= 6; k++) {
      c.write('x');
      await timers.armed(2 + k);
      if (k < 6) await timers.fake.advance(TIMEOUTS.idleMs - 1);
    }
    await timers.fake.advance(5);
    expect(await c.answer).toMatch(/^HTTP\/1\.1 408 [^]*did not arrive within 5000 ms\n$/);
  });

  test.each(['/api/v1/write', '/api/v1/query', '/federate'])('a client that goes away mid-body on %s logs no error line', async (path) => {
    const { timers, port, logger } = await start();
    const c = rawClient(port);
    c.write(head(path, path === '/api/v1/write' ? PROTO : FORM, 100) + 'query=up');
    await timers.armed(3);
    c.destroy();
    await timers.idle();
    await timers.fake.advance(0);
    // The server still serves, and said nothing above debug about the client.
    expect((await fetch(`http://127.0.0.1:${port}/-/healthy`)).status).toBe(200);
    expect(logger.lines.filter((l) => l.level !== 'debug' && l.level !== 'info')).toEqual([]);
  });
});
