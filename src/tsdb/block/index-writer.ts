/**
 * Writes a block's `index` file (docs/formats/index.md) from series that are already sorted by
 * labels, with their chunks already written to the segment files.
 */
import type { Labels } from '../../model/index.js';
import { ByteBuf, FileSink } from './byte-buf.js';
import { FILE_HEADER_BYTES, INDEX_MAGIC, INDEX_VERSION, MAX_U32, putFileHeader } from './format.js';

/** One series as the index records it: labels and `[minTimeMs, maxTimeMs, chunkRef]` triplets. */
export interface IndexSeries {
  readonly labels: Labels;
  readonly chunks: readonly number[];
}

/** A growable list of uint32 postings. */
class IdList {
  ids = new Uint32Array(4);
  length = 0;
  push(id: number): void {
    if (this.length === this.ids.length) {
      const grown = new Uint32Array(this.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.length++] = id;
  }
}

/**
 * Writes the index of `series` (sorted by labels, each with at least one chunk) to `path`,
 * fsyncs and closes it, and returns its size in bytes. Throws a RangeError when the series or
 * postings section would pass the 4 GiB that 32-bit ids and offsets allow.
 */
export async function writeIndex(path: string, series: readonly IndexSeries[]): Promise<number> {
  const symbols = collectSymbols(series);
  const refs = new Map<string, number>();
  symbols.forEach((s, i) => refs.set(s, i));

  const sink = await FileSink.create(path);
  try {
    const header = new Uint8Array(FILE_HEADER_BYTES);
    putFileHeader(header, INDEX_MAGIC, INDEX_VERSION);
    sink.buf.putBytes(header);

    const symbolsOffset = sink.offset();
    await writeSymbols(sink, symbols);

    const seriesOffset = sink.offset();
    const { all, byPair } = await writeSeries(sink, series, refs);

    const postingsOffset = sink.offset();
    const starts = await writePostings(sink, all, byPair);

    const labelIndexOffset = sink.offset();
    await writeLabelIndex(sink, byPair, starts);

    sink.beginSection();
    sink.buf.putU64(symbolsOffset);
    sink.buf.putU64(seriesOffset);
    sink.buf.putU64(postingsOffset);
    sink.buf.putU64(labelIndexOffset);
    sink.endSection();
    return await sink.close();
  } catch (err) {
    await sink.abandon();
    throw err;
  }
}

function collectSymbols(series: readonly IndexSeries[]): string[] {
  const set = new Set<string>();
  for (const s of series) {
    s.labels.forEach((name, value) => {
      set.add(name);
      set.add(value);
    });
  }
  // Default sort: UTF-16 code unit order, the order of Labels.compare (see index.md).
  return [...set].sort();
}

async function writeSymbols(sink: FileSink, symbols: readonly string[]): Promise<void> {
  const enc = new TextEncoder();
  sink.beginSection();
  sink.buf.putUvarint(symbols.length);
  for (const s of symbols) {
    const bytes = enc.encode(s);
    sink.buf.putUvarint(bytes.length);
    sink.buf.putBytes(bytes);
    if (sink.full()) await sink.flush();
  }
  sink.endSection();
}

/**
 * Postings per label pair, keyed `nameRef * 2^32 + valueRef` so that numeric key order is name
 * order, then value order (symbol refs sort like their strings).
 */
type PairPostings = Map<number, IdList>;

const PAIR_FACTOR = 2 ** 32;

async function writeSeries(
  sink: FileSink,
  series: readonly IndexSeries[],
  refs: ReadonlyMap<string, number>,
): Promise<{ all: IdList; byPair: PairPostings }> {
  const all = new IdList();
  const byPair: PairPostings = new Map();
  const rec = new ByteBuf();
  sink.beginSection();
  const start = sink.offset();
  for (const s of series) {
    const id = sink.offset() - start;
    if (id > MAX_U32) throw new RangeError(`index: series section passes 4 GiB (${sink.path})`);
    all.push(id);
    rec.reset();
    const pairs = s.labels.flat();
    rec.putUvarint(pairs.length / 2);
    for (let i = 0; i < pairs.length; i += 2) {
      const n = refs.get(pairs[i])!;
      const v = refs.get(pairs[i + 1])!;
      rec.putUvarint(n);
      rec.putUvarint(v);
      const key = n * PAIR_FACTOR + v;
      let list = byPair.get(key);
      if (list === undefined) byPair.set(key, (list = new IdList()));
      list.push(id);
    }
    encodeChunkMetas(rec, s.chunks);
    sink.buf.putUvarint(rec.length);
    sink.buf.putBytes(rec.view());
    if (sink.full()) await sink.flush();
  }
  sink.endSection();
  return { all, byPair };
}

function encodeChunkMetas(rec: ByteBuf, chunks: readonly number[]): void {
  rec.putUvarint(chunks.length / 3);
  let prevMax = 0;
  let prevRef = 0;
  for (let i = 0; i < chunks.length; i += 3) {
    const minT = chunks[i];
    const maxT = chunks[i + 1];
    const ref = chunks[i + 2];
    if (i === 0) {
      rec.putVarint(minT);
      rec.putUvarint(maxT - minT);
      rec.putUvarint(ref);
    } else {
      rec.putUvarint(minT - prevMax);
      rec.putUvarint(maxT - minT);
      rec.putUvarint(ref - prevRef);
    }
    prevMax = maxT;
    prevRef = ref;
  }
}

function putPostingsList(buf: ByteBuf, list: IdList): void {
  const ids = list.ids;
  buf.putUvarint(list.length);
  let prev = 0;
  for (let i = 0; i < list.length; i++) {
    buf.putUvarint(ids[i] - prev);
    prev = ids[i];
  }
}

/** Writes list 0 (all series), then one list per pair; returns each pair list's start offset. */
async function writePostings(sink: FileSink, all: IdList, byPair: PairPostings): Promise<number[]> {
  sink.beginSection();
  const start = sink.offset();
  const starts: number[] = [];
  putPostingsList(sink.buf, all);
  for (const key of sortedKeys(byPair)) {
    const offset = sink.offset() - start;
    if (offset > MAX_U32) throw new RangeError(`index: postings section passes 4 GiB (${sink.path})`);
    starts.push(offset);
    putPostingsList(sink.buf, byPair.get(key)!);
    if (sink.full()) await sink.flush();
  }
  sink.endSection();
  return starts;
}

async function writeLabelIndex(sink: FileSink, byPair: PairPostings, starts: readonly number[]): Promise<void> {
  const keys = sortedKeys(byPair);
  const buf = sink.buf;
  sink.beginSection();
  let names = 0;
  for (let k = 0; k < keys.length; k++) if (k === 0 || nameOf(keys[k]) !== nameOf(keys[k - 1])) names++;
  buf.putUvarint(names);
  let prevOffset = 0;
  for (let k = 0; k < keys.length; ) {
    const name = nameOf(keys[k]);
    let end = k;
    while (end < keys.length && nameOf(keys[end]) === name) end++;
    buf.putUvarint(name);
    buf.putUvarint(end - k);
    let prevValue = 0;
    for (; k < end; k++) {
      const value = keys[k] - name * PAIR_FACTOR;
      buf.putUvarint(value - prevValue);
      buf.putUvarint(starts[k] - prevOffset);
      prevValue = value;
      prevOffset = starts[k];
    }
    if (sink.full()) await sink.flush();
  }
  sink.endSection();
}

function nameOf(key: number): number {
  return Math.floor(key / PAIR_FACTOR);
}

function sortedKeys(map: ReadonlyMap<number, unknown>): number[] {
  return [...map.keys()].sort((a, b) => a - b);
}
