import { describe, expect, it, test } from 'vitest';
import { mulberry32 } from '../../model/index.js';
import { ChunkStore, NO_CHUNK } from './chunk-store.js';

/** Chunk bytes whose 2-byte header says `samples` and whose body is `fill` repeated. */
function chunk(samples: number, bodyBytes: number, fill: number): Uint8Array {
  const b = new Uint8Array(2 + bodyBytes).fill(fill);
  b[0] = samples >> 8;
  b[1] = samples & 0xff;
  return b;
}

describe('ChunkStore', () => {
  test.each([
    ['a small chunk', 1, 10],
    ['a 120-sample chunk', 120, 300],
    ['a chunk larger than a shared slab takes', 65535, 20_000],
  ])('keeps %s: bytes, bounds and header count', (_name, samples, body) => {
    const store = new ChunkStore();
    const src = chunk(samples, body, 7);
    const id = store.add(src, 1000, 2000);
    src.fill(0); // the store copied it
    expect(store.bytes(id)).toEqual(chunk(samples, body, 7));
    expect([store.minT[id], store.maxT[id], store.next[id]]).toEqual([1000, 2000, NO_CHUNK]);
    expect(store.numSamples(id)).toBe(samples);
    expect(store.byteLength(id)).toBe(2 + body);
    expect(store.numChunks).toBe(1);
  });

  it('reuses freed ids, bumping their generation', () => {
    const store = new ChunkStore();
    const a = store.add(chunk(1, 4, 1), 0, 1);
    const gen = store.gen[a];
    store.free(a);
    expect(store.gen[a]).toBe(gen + 1);
    expect(store.numChunks).toBe(0);
    expect(store.add(chunk(1, 4, 2), 5, 6)).toBe(a);
  });

  it('never overwrites the bytes of a freed chunk a reader still holds', () => {
    const store = new ChunkStore();
    const ids = Array.from({ length: 100 }, (_, i) => store.add(chunk(i, 100, i), i, i));
    const views = ids.map((id) => store.bytes(id));
    for (const id of ids) store.free(id);
    expect(store.slabBytes).toBe(0); // the slab went with its last chunk
    for (let i = 0; i < 100; i++) store.add(chunk(0, 100, 0xee), 0, 0);
    views.forEach((v, i) => expect(v).toEqual(chunk(i, 100, i)));
  });

  it('adopts views of one buffer into one slab, without copying', () => {
    const store = new ChunkStore();
    const file = new Uint8Array(4096);
    const a = store.adopt(file.subarray(10, 20), 0, 1);
    const b = store.adopt(file.subarray(100, 150), 2, 3);
    expect(store.slabBytes).toBe(4096);
    file[10] = 42;
    expect(store.bytes(a)[0]).toBe(42);
    expect(store.bytes(b).length).toBe(50);
    store.free(a);
    expect(store.slabBytes).toBe(4096);
    store.free(b);
    expect(store.slabBytes).toBe(0);
    // A later view of the same buffer gets a slab of its own again.
    const c = store.adopt(file.subarray(0, 8), 4, 5);
    expect(store.slabBytes).toBe(4096);
    expect(store.bytes(c).length).toBe(8);
  });

  it('matches a map of live chunks under random adds and frees', () => {
    const r = mulberry32(11);
    const store = new ChunkStore();
    const model = new Map<number, { bytes: Uint8Array; minT: number }>();
    const liveIds: number[] = [];
    for (let step = 0; step < 5000; step++) {
      if (liveIds.length > 0 && r() < 0.45) {
        const k = Math.floor(r() * liveIds.length);
        const id = liveIds[k];
        liveIds[k] = liveIds[liveIds.length - 1];
        liveIds.pop();
        store.free(id);
        model.delete(id);
        continue;
      }
      const bytes = chunk(Math.floor(r() * 200), Math.floor(r() * (r() < 0.01 ? 30_000 : 400)), step & 0xff);
      const id = store.add(bytes, step, step + 1);
      if (model.has(id)) throw new Error(`id ${id} handed out twice`);
      model.set(id, { bytes, minT: step });
      liveIds.push(id);
    }
    expect(store.numChunks).toBe(model.size);
    for (const [id, c] of model) {
      expect(store.bytes(id)).toEqual(c.bytes);
      expect(store.minT[id]).toBe(c.minT);
    }
  });
});
