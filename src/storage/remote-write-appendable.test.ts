import { describe, expect, it } from 'vitest';
import { Labels } from '../model/index.js';
import { isStorageError } from './errors.js';
import { decodeRemoteWriteV1, snappyDecode } from '../wire/index.js';
import { RemoteWriteAppendable } from './remote-write-appendable.js';

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
