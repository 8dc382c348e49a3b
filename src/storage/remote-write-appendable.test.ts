import { describe, expect, it } from 'vitest';
import { Labels } from '../model/index.js';
import { isStorageError } from './errors.js';
import { decodeRemoteWriteV1, snappyDecode } from '../wire/index.js';
import { RemoteWriteAppendable } from './remote-write-appendable.js';
import { MemoryStorage, runAppenderSuite } from './testing/index.js';

/**
 * A remote-write receiver as a fetch: decodes each request and commits its samples into `store`
 * (one appender per request, as a receiver does), answering 204, or 400 with the storage's error.
 */
function receiverFetch(store: MemoryStorage): typeof fetch {
  return (async (_url: string, init: RequestInit) => {
    const batch = decodeRemoteWriteV1(snappyDecode(init.body as Uint8Array, 1 << 26));
    const app = store.appender();
    try {
      for (let i = 0; i < batch.seriesCount; i++) {
        const flat = batch.labels(i);
        const rec: Record<string, string> = {};
        for (let j = 0; j < flat.length; j += 2) rec[flat[j]] = flat[j + 1];
        const labels = Labels.from(rec);
        for (let k = batch.sampleStart[i]; k < batch.sampleStart[i + 1]; k++) app.append(0, labels, batch.tMs[k], batch.values[k]);
      }
      await app.commit();
      return new Response(null, { status: 204 });
    } catch (e) {
      app.rollback();
      return new Response((e as Error).message, { status: 400 });
    }
  }) as unknown as typeof fetch;
}

// The receiver decides ordering (validatesOrder: false): a refused batch fails the commit as a 4xx.
runAppenderSuite(
  'RemoteWriteAppendable (through a receiver round trip)',
  async () => {
    const store = new MemoryStorage();
    return {
      appendable: new RemoteWriteAppendable('http://receiver/api/v1/write', { fetch: receiverFetch(store) }),
      read: async (ms, minT, maxT) => store.read(ms, minT, maxT),
      close: async () => undefined,
    };
  },
  { validatesOrder: false, persistent: false },
);

describe('RemoteWriteAppendable', () => {
  it('sends a committed batch as one snappy remote-write request, and refs resolve to their labels', async () => {
    const sent: { headers: Record<string, string>; body: Uint8Array }[] = [];
    const fake = (async (_url: string, init: RequestInit) => {
      sent.push({ headers: init.headers as Record<string, string>, body: init.body as Uint8Array });
      return new Response(null, { status: 204 });
    }) as unknown as typeof fetch;
    const rw = new RemoteWriteAppendable('http://x/api/v1/write', { fetch: fake });
    const a = rw.appender();
    const ref = a.append(0, Labels.from({ __name__: 'up', job: 'gateway' }), 1000, 1);
    a.append(0, Labels.from({ __name__: 'x_total' }), 1000, 5);
    await a.commit();
    const b = rw.appender();
    b.append(ref, Labels.EMPTY, 2000, 0);
    await b.commit();
    expect(sent).toHaveLength(2);
    expect(sent[0].headers).toMatchObject({ 'Content-Encoding': 'snappy', 'X-Prometheus-Remote-Write-Version': '0.1.0' });
    const batch = decodeRemoteWriteV1(snappyDecode(sent[0].body, 1 << 20));
    expect(batch.seriesCount).toBe(2);
    expect(batch.labels(0)).toEqual(['__name__', 'up', 'job', 'gateway']);
    expect([...batch.values]).toEqual([1, 5]);
    const second = decodeRemoteWriteV1(snappyDecode(sent[1].body, 1 << 20));
    expect(second.labels(0)).toEqual(['__name__', 'up', 'job', 'gateway']);
    expect([...second.tMs]).toEqual([2000]);
  });

  it('a refused or failed send rejects the commit with ERR_STORAGE_UNAVAILABLE', async () => {
    const refuse = (async () => new Response('nope', { status: 500 })) as unknown as typeof fetch;
    const a = new RemoteWriteAppendable('http://x', { fetch: refuse }).appender();
    a.append(0, Labels.from({ __name__: 'up' }), 1, 1);
    await expect(a.commit()).rejects.toSatisfy((e) => isStorageError(e, 'ERR_STORAGE_UNAVAILABLE'));
    const down = (async () => {
      throw new Error('ECONNREFUSED');
    }) as unknown as typeof fetch;
    const b = new RemoteWriteAppendable('http://x', { fetch: down }).appender();
    b.append(0, Labels.from({ __name__: 'up' }), 1, 1);
    await expect(b.commit()).rejects.toSatisfy((e) => isStorageError(e, 'ERR_STORAGE_UNAVAILABLE'));
    expect(() => b.append(0, Labels.from({ __name__: 'up' }), 2, 1)).toThrow(/already committed/);
  });
});
