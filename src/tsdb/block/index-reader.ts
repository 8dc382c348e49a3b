/**
 * Reads a block's `index` (docs/formats/index.md). Symbols and the label-value index live in
 * memory; series records and postings lists are read on demand through read-ahead windows.
 */
import { closeSync, fstatSync, openSync } from 'node:fs';
import { Labels } from '../../model/index.js';
import { Decoder } from './decoder.js';
import { FileWindow } from './file-window.js';
import { CRC_BYTES, MAX_U32, corruption } from './format.js';
import {
  decodeLabelIndex,
  decodeSymbols,
  readSection,
  readToc,
  verifySection,
  type IndexToc,
  type LabelIndex,
} from './index-sections.js';
import { EMPTY_POSTINGS } from './postings.js';

const WINDOW_BYTES = 64 * 1024;
const MAX_RECORD_PREFIX = 5;
/** Decoded postings kept per open block, in bytes (an LRU; see `readPostings`). */
const POSTINGS_CACHE_BYTES = 8 * 1024 * 1024;

/** One decoded series: its labels and chunk metas as `[minTimeMs, maxTimeMs, chunkRef]` triplets. */
export interface SeriesRecord {
  readonly labels: Labels;
  readonly chunks: Float64Array;
}

/** An open index file. Not safe to use after `close()`. */
export class IndexReader {
  // Decoded postings lists, most recently used last. Repeated selects (dashboards refreshing
  // the same panels) then skip decoding the long lists of low-cardinality labels.
  private readonly postingsCache = new Map<number, Uint32Array>();
  private postingsCacheBytes = 0;
  private readonly seriesWindow: FileWindow;
  private readonly postingsWindow: FileWindow;
  private readonly decoder: Decoder;
  private readonly nameIndexes = new Map<string, number>();
  private closed = false;

  private constructor(
    /** The path of the index file. */
    readonly path: string,
    private readonly fd: number,
    private readonly size: number,
    private readonly toc: IndexToc,
    private readonly symbols: readonly string[],
    private readonly labels: LabelIndex,
  ) {
    this.seriesWindow = new FileWindow(fd, path, toc.postings - CRC_BYTES, WINDOW_BYTES);
    this.postingsWindow = new FileWindow(fd, path, toc.labelIndex - CRC_BYTES, WINDOW_BYTES);
    this.decoder = new Decoder(path);
    labels.names.forEach((name, i) => this.nameIndexes.set(name, i));
  }

  /**
   * Opens `path`, checks header and table of contents, loads symbols and the label-value index,
   * and, when `verifyChecksums` is true, streams the series and postings sections once to check
   * their CRCs. Throws `ERR_CORRUPTION` naming the file on any inconsistency.
   */
  static open(path: string, verifyChecksums: boolean): IndexReader {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (err) {
      throw corruption(path, 'cannot open index', err);
    }
    try {
      const size = fstatSync(fd).size;
      const toc = readToc(fd, path, size);
      const symbols = decodeSymbols(path, readSection(fd, path, 'symbol table', toc.symbols, toc.series));
      const postingsLength = toc.labelIndex - CRC_BYTES - toc.postings;
      if (postingsLength > MAX_U32 || toc.postings - CRC_BYTES - toc.series > MAX_U32) {
        throw corruption(path, 'series or postings section larger than 4 GiB');
      }
      const labelSection = readSection(fd, path, 'label-value index', toc.labelIndex, toc.end);
      const labels = decodeLabelIndex(path, labelSection, symbols, postingsLength);
      if (verifyChecksums) {
        verifySection(fd, path, 'series', toc.series, toc.postings);
        verifySection(fd, path, 'postings', toc.postings, toc.labelIndex);
      }
      return new IndexReader(path, fd, size, toc, symbols, labels);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** The size of the index file in bytes. */
  sizeBytes(): number {
    return this.size;
  }

  /** Every label name in the block, sorted. */
  labelNames(): readonly string[] {
    return this.labels.names;
  }

  /** The position of `name` among the label names, or -1 when no series has it. */
  nameIndex(name: string): number {
    return this.nameIndexes.get(name) ?? -1;
  }

  /** The first global value index of the name at `nameIndex`. */
  valuesStart(nameIndex: number): number {
    return this.labels.valueStarts[nameIndex];
  }

  /** One past the last global value index of the name at `nameIndex`. */
  valuesEnd(nameIndex: number): number {
    return this.labels.valueStarts[nameIndex + 1];
  }

  /** The string of global value `k`. */
  value(k: number): string {
    return this.symbols[this.labels.valueRefs[k]];
  }

  /** The global index of `value` under the name at `nameIndex`, or -1. */
  findValue(nameIndex: number, value: string): number {
    const k = this.lowerBoundValue(nameIndex, value);
    return k < this.valuesEnd(nameIndex) && this.value(k) === value ? k : -1;
  }

  /** The first global value index of the name whose value is >= `value` (or `valuesEnd`). */
  lowerBoundValue(nameIndex: number, value: string): number {
    let lo = this.valuesStart(nameIndex);
    let hi = this.valuesEnd(nameIndex);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.value(mid) < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The ids of every series in the block. */
  allPostings(): Uint32Array {
    return this.readPostings(0);
  }

  /** The ids of the series that have global value `k`. */
  postings(k: number): Uint32Array {
    return this.readPostings(k + 1);
  }

  /** Reads series `id`: its labels and chunk metas. Throws `ERR_CORRUPTION` on bad bytes. */
  readSeries(id: number): SeriesRecord {
    this.checkOpen();
    const w = this.seriesWindow;
    const offset = this.toc.series + id;
    let at = w.loadUpTo(offset, MAX_RECORD_PREFIX);
    const d = this.decoder.reset(w.buf, at, w.validEnd());
    const len = d.uvarint();
    const head = d.offset - at;
    at = w.load(offset, head + len);
    d.reset(w.buf, at + head, at + head + len);
    const symbols = this.symbols;
    const labelCount = d.uvarintBelow(len + 1, 'label count');
    const pairs: string[] = new Array<string>(labelCount * 2);
    for (let i = 0; i < labelCount * 2; i++) pairs[i] = symbols[d.uvarintBelow(symbols.length, 'symbol ref')];
    const chunkCount = d.uvarintBelow(len + 1, 'chunk count');
    if (chunkCount === 0) throw d.fail(`series ${id} has no chunks`);
    const chunks = new Float64Array(chunkCount * 3);
    let maxT = 0;
    let ref = 0;
    for (let c = 0; c < chunkCount; c++) {
      const minT = c === 0 ? d.varint() : maxT + d.uvarint();
      maxT = minT + d.uvarint();
      ref = c === 0 ? d.uvarint() : ref + d.uvarint();
      chunks[3 * c] = minT;
      chunks[3 * c + 1] = maxT;
      chunks[3 * c + 2] = ref;
    }
    d.expectEnd(`series ${id}`);
    return { labels: Labels.fromSortedPairsUnchecked(pairs), chunks };
  }

  /** Closes the file. Calling it twice is harmless. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  private readPostings(list: number): Uint32Array {
    this.checkOpen();
    const cached = this.postingsCache.get(list);
    if (cached !== undefined) {
      // Refresh its place in the insertion-ordered map: the oldest entry is evicted first.
      this.postingsCache.delete(list);
      this.postingsCache.set(list, cached);
      return cached;
    }
    const decoded = this.decodePostings(list);
    this.postingsCache.set(list, decoded);
    this.postingsCacheBytes += decoded.byteLength;
    for (const [k, v] of this.postingsCache) {
      if (this.postingsCacheBytes <= POSTINGS_CACHE_BYTES) break;
      this.postingsCache.delete(k);
      this.postingsCacheBytes -= v.byteLength;
    }
    return decoded;
  }

  /** Decodes postings list `list` from the file. */
  private decodePostings(list: number): Uint32Array {
    const starts = this.labels.postingsStarts;
    const start = starts[list];
    const len = starts[list + 1] - start;
    const w = this.postingsWindow;
    const at = w.load(this.toc.postings + start, len);
    const d = this.decoder.reset(w.buf, at, at + len);
    const count = d.uvarintBelow(len + 1, 'postings count');
    if (count === 0) return EMPTY_POSTINGS;
    const ids = new Uint32Array(count);
    let id = 0;
    for (let i = 0; i < count; i++) {
      const delta = d.uvarint();
      if (i > 0 && delta === 0) throw d.fail('postings not strictly increasing');
      id += delta;
      ids[i] = id;
    }
    if (id > MAX_U32) throw d.fail('postings id out of range');
    d.expectEnd('postings list');
    return ids;
  }

  private checkOpen(): void {
    if (this.closed) throw new Error(`block index ${this.path} read after close`);
  }
}
