import type { UnixMs } from '../../model/index.js';

/** The id no chunk has: the end of a series' chunk list. */
export const NO_CHUNK = -1;

/** Chunks up to this size are copied into a shared slab; larger ones get their own. */
const MAX_SHARED_BYTES = 16 * 1024;
const SLAB_BYTES = 1 << 20;
const MIN_CHUNKS = 1024;

/**
 * The head's sealed chunks, without a JavaScript object per chunk. A chunk is a small integer id
 * into typed-array columns (time bounds, where its bytes are, the next chunk of the same series,
 * a generation), and its bytes lie in shared byte slabs: 1 MiB buffers the store fills with
 * copies, or buffers it adopts as they are (the head-chunks log's segments, read at open).
 *
 * One object per chunk (a bounds record, two boxed doubles, a `Uint8Array` view) was about
 * 150 bytes of heap and five objects the collector traced and promoted; at 300k series with a
 * chunk sealed every 30 min that was most of the head's objects. Here a chunk costs 36 bytes of
 * columns and no object at all; a `Uint8Array` view is made only when a reader asks (`bytes`).
 *
 * Each series keeps its chunks as a singly linked list through `next`, oldest first (see
 * `MemSeries`). Freed ids are reused; `gen` counts the frees of an id, so a holder of an id (the
 * head-chunks log) can tell whether it still names the same chunk. Bytes are never overwritten:
 * a slab is dropped (never refilled) when its last chunk is freed, and its memory goes when the
 * last view a reader took of it goes. Chunks sealed together leave the head together at a block
 * cut, so slabs empty as a whole.
 */
export class ChunkStore {
  /** Time of the first and the last sample of each chunk. */
  minT = new Float64Array(0);
  maxT = new Float64Array(0);
  /** The next chunk of the same series (oldest first), or `NO_CHUNK`; the free list for free ids. */
  next = new Int32Array(0);
  /** Bumped each time the id is freed. */
  gen = new Int32Array(0);
  private slabOf = new Int32Array(0);
  private offsetOf = new Int32Array(0);
  private lengthOf = new Int32Array(0);
  private freeIds = NO_CHUNK;
  private nextId = 0;
  private live = 0;
  private readonly slabs: (Uint8Array | null)[] = [];
  /** Live chunks per slab. */
  private readonly slabChunks: number[] = [];
  private readonly freeSlabs: number[] = [];
  /** The slab being filled by `add`, and how much of it is used. */
  private fill = -1;
  private fillUsed = 0;
  /** The buffer `adopt` saw last, and its slab. */
  private adoptedBuffer: ArrayBufferLike | null = null;
  private adoptedSlab = -1;
  private slabBytesTotal = 0;

  /** Stores a copy of `bytes` as a new chunk and returns its id. */
  add(bytes: Uint8Array, minTimeMs: UnixMs, maxTimeMs: UnixMs): number {
    const n = bytes.length;
    let slab: number;
    let offset = 0;
    if (n > MAX_SHARED_BYTES) {
      slab = this.newSlab(new Uint8Array(n));
    } else {
      if (this.fill < 0 || this.fillUsed + n > SLAB_BYTES) {
        this.fill = this.newSlab(new Uint8Array(SLAB_BYTES));
        this.fillUsed = 0;
      }
      slab = this.fill;
      offset = this.fillUsed;
      this.fillUsed += n;
    }
    (this.slabs[slab] as Uint8Array).set(bytes, offset);
    return this.place(slab, offset, n, minTimeMs, maxTimeMs);
  }

  /**
   * Stores `bytes` as a new chunk without copying: the chunk refers to the buffer under the
   * view, which must never change afterwards. Consecutive calls with views of one buffer share
   * one slab (the head-chunks log's segments, loaded at open).
   */
  adopt(bytes: Uint8Array, minTimeMs: UnixMs, maxTimeMs: UnixMs): number {
    if (bytes.buffer !== this.adoptedBuffer || this.slabs[this.adoptedSlab] === null) {
      this.adoptedBuffer = bytes.buffer;
      this.adoptedSlab = this.newSlab(new Uint8Array(bytes.buffer));
    }
    return this.place(this.adoptedSlab, bytes.byteOffset, bytes.length, minTimeMs, maxTimeMs);
  }

  /** A view of chunk `id`'s encoded bytes (valid until the chunk is freed). */
  bytes(id: number): Uint8Array {
    const slab = this.slabs[this.slabOf[id]] as Uint8Array;
    const offset = this.offsetOf[id];
    return slab.subarray(offset, offset + this.lengthOf[id]);
  }

  /** The length of chunk `id`'s encoded bytes. */
  byteLength(id: number): number {
    return this.lengthOf[id];
  }

  /** The sample count in chunk `id`'s header (read without decoding). */
  numSamples(id: number): number {
    const slab = this.slabs[this.slabOf[id]] as Uint8Array;
    const offset = this.offsetOf[id];
    return this.lengthOf[id] < 2 ? 0 : (slab[offset] << 8) | slab[offset + 1];
  }

  /** Frees chunk `id` (its slab goes once no chunk is left in it). The id may be reused. */
  free(id: number): void {
    const slab = this.slabOf[id];
    this.gen[id]++;
    this.next[id] = this.freeIds;
    this.freeIds = id;
    this.live--;
    if (--this.slabChunks[slab] > 0) return;
    // Never refill a slab: a querier's snapshot may still read the freed chunks through views.
    if (slab === this.fill) this.fill = -1;
    if (slab === this.adoptedSlab) this.adoptedBuffer = null;
    this.slabBytesTotal -= (this.slabs[slab] as Uint8Array).length;
    this.slabs[slab] = null;
    this.freeSlabs.push(slab);
  }

  /** How many chunks are stored. */
  get numChunks(): number {
    return this.live;
  }

  /** Bytes held by the slabs (whole buffers, also their unused tails and adopted files' other bytes). */
  get slabBytes(): number {
    return this.slabBytesTotal;
  }

  private newSlab(buf: Uint8Array): number {
    const id = this.freeSlabs.pop() ?? this.slabs.length;
    this.slabs[id] = buf;
    this.slabChunks[id] = 0;
    this.slabBytesTotal += buf.length;
    return id;
  }

  private place(slab: number, offset: number, length: number, minTimeMs: UnixMs, maxTimeMs: UnixMs): number {
    let id = this.freeIds;
    if (id !== NO_CHUNK) this.freeIds = this.next[id];
    else {
      if (this.nextId === this.minT.length) this.grow();
      id = this.nextId++;
    }
    this.minT[id] = minTimeMs;
    this.maxT[id] = maxTimeMs;
    this.next[id] = NO_CHUNK;
    this.slabOf[id] = slab;
    this.offsetOf[id] = offset;
    this.lengthOf[id] = length;
    this.slabChunks[slab]++;
    this.live++;
    return id;
  }

  private grow(): void {
    const size = Math.max(MIN_CHUNKS, this.minT.length * 2);
    this.minT = grown(this.minT, new Float64Array(size));
    this.maxT = grown(this.maxT, new Float64Array(size));
    this.next = grown(this.next, new Int32Array(size));
    this.gen = grown(this.gen, new Int32Array(size));
    this.slabOf = grown(this.slabOf, new Int32Array(size));
    this.offsetOf = grown(this.offsetOf, new Int32Array(size));
    this.lengthOf = grown(this.lengthOf, new Int32Array(size));
  }
}

function grown<T extends Float64Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
