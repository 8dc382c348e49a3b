import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { FakeAnswer } from './testing/fake-fetch.js';
import { harness } from './testing/harness.js';

const MiB = 1024 * 1024;

/** A hostile answer made while it is read, counting the bytes the scraper pulled from it. */
interface Hostile {
  readonly answer: FakeAnswer;
  /** Bytes of the (compressed) body the scraper pulled in the last scrape. */
  pulled: number;
  /** The whole body's size in bytes, had it been read to the end. */
  readonly size: number;
  readonly error: string | RegExp;
}

function hostile(size: number, error: string | RegExp, gen: () => Iterable<Uint8Array>, contentEncoding?: string): Hostile {
  const h: Hostile = {
    size,
    error,
    pulled: 0,
    answer: {
      contentEncoding,
      chunks: function* () {
        h.pulled = 0;
        for (const c of gen()) {
          h.pulled += c.byteLength;
          yield c;
        }
      },
    },
  };
  return h;
}

/** `total` bytes of `text` repeated, in chunks of about 64 KiB (each a whole number of repeats). */
function repeated(text: string, total: number): () => Iterable<Uint8Array> {
  const chunk = Buffer.from(text.repeat(Math.max(1, Math.floor(65536 / text.length))));
  return function* () {
    for (let n = 0; n < total; n += chunk.length) yield chunk;
  };
}

function millionSeries(): Hostile {
  const lines = 1_000_000;
  return hostile(lines * 24, 'sample limit exceeded', function* () {
    for (let i = 0; i < lines; i += 4096) {
      let s = '';
      for (let j = i; j < i + 4096; j++) s += `hostile_series_${String(j).padStart(7, '0')} 1\n`;
      yield Buffer.from(s);
    }
  });
}

function gzipBomb(): Hostile {
  // Gzip members concatenate: 400 members of 1 MiB of newlines decode to 400 MiB.
  const member = gzipSync(Buffer.alloc(MiB, 0x0a), { level: 9 });
  return hostile(400 * member.length, 'body size limit exceeded', function* () {
    for (let i = 0; i < 400; i++) yield member;
  }, 'gzip');
}

function wideLine(labels: number): Hostile {
  const line = `wide{${Array.from({ length: labels }, (_, i) => `l${labels - i}="v"`).join(',')}} 1\n`;
  return hostile(line.length, /^label_limit exceeded \(metric: wide, number of labels: more than 64, limit: 64\)$/, () => [Buffer.from(line)]);
}

const HOSTILE_KINDS: (() => Hostile)[] = [
  millionSeries,
  gzipBomb,
  () => wideLine(40_000),
  () => hostile(10 * MiB, /^label_value_length_limit exceeded \(metric: v, label name: a, .*length: 10485760, limit: 4096\)$/, () => [Buffer.from('v{a="'), ...repeated('x', 10 * MiB)(), Buffer.from('"} 1\n')]),
  () => hostile(MiB, /^label_name_length_limit exceeded \(metric: n, label name: a+, length: 1048576, limit: 256\)$/, () => [Buffer.from('n{'), ...repeated('a', MiB)(), Buffer.from('="1"} 1\n')]),
  // 64 MiB without a newline: one endless token.
  () => hostile(64 * MiB, 'body size limit exceeded', repeated('y', 64 * MiB)),
];

describe('hostile targets beside a healthy one, default limits', () => {
  it('13 hostile targets fail at their limits, having read little of their bodies, and the healthy target stays up', async () => {
    const h = harness();
    const hostiles = Array.from({ length: 13 }, (_, i) => HOSTILE_KINDS[i % HOSTILE_KINDS.length]());
    const targets = ['healthy:1', ...hostiles.map((_, i) => `hostile-${i}:1`)];
    h.fetch.set('http://healthy:1/metrics', { body: '# TYPE healthy_requests counter\nhealthy_requests{model="m"} 7\nhealthy_queue 2\n' });
    hostiles.forEach((x, i) => h.fetch.set(`http://hostile-${i}:1/metrics`, x.answer));
    await h.apply(`scrape_configs:\n  - job_name: mixed\n    scrape_interval: 10s\n    scrape_timeout: 10s\n    static_configs: [{targets: ${JSON.stringify(targets)}}]\n`);

    const rounds = 2;
    for (let round = 1; round <= rounds; round++) {
      await h.timers.advance(10_000);
      await h.manager.settled();
      const healthy = { job: 'mixed', instance: 'healthy:1' };
      expect(h.target('http://healthy:1/metrics')).toMatchObject({ health: 'up', lastError: '' });
      expect(h.store.samples({ __name__: 'up', ...healthy }).map(([, v]) => v)).toEqual(Array(round).fill(1));
      expect(h.store.samples({ __name__: 'healthy_requests', model: 'm', ...healthy })).toHaveLength(round);
      expect(h.store.samples({ __name__: 'healthy_queue', ...healthy })).toHaveLength(round);
      hostiles.forEach((x, i) => {
        const t = h.target(`http://hostile-${i}:1/metrics`);
        expect(t.health, t.lastError).toBe('down');
        expect(t.lastError).toMatch(x.error);
        // Bounded work: a scrape stops at its limit instead of reading the whole body.
        expect(x.pulled, `hostile-${i} (${t.lastError})`).toBeLessThan(Math.max(x.size / 5, 33 * MiB));
      });
    }
    // Nothing of the hostile bodies was stored, only their synthetic series.
    const stored = h.store.find({}).map((s) => s.labels.metricName);
    expect(stored.filter((n) => n.startsWith('hostile') || ['wide', 'v', 'n'].includes(n))).toEqual([]);
    // The million-series target read 100,001 samples, not a million (scrape_samples_scraped).
    const scraped = h.store.samples({ __name__: 'scrape_samples_scraped', instance: 'hostile-0:1' });
    expect(scraped.map(([, v]) => v)).toEqual(Array(rounds).fill(100_001));
  });
});
