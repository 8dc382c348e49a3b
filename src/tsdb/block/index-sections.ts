/**
 * Opening an index file: the table of contents, the header, checksums, and the two sections the
 * reader keeps in memory (symbols and the label-value index). See docs/formats/index.md.
 */
import { readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { Decoder } from './decoder.js';
import { CRC_BYTES, FILE_HEADER_BYTES, INDEX_MAGIC, INDEX_VERSION, TOC_BYTES, checkFileHeader, corruption } from './format.js';

/** Absolute offsets of the index sections; section `i` ends (CRC included) where `i + 1` starts. */
export interface IndexToc {
  readonly symbols: number;
  readonly series: number;
  readonly postings: number;
  readonly labelIndex: number;
  /** The offset of the table of contents itself (the end of the label-value index). */
  readonly end: number;
}

/** The label-value index in compact form. */
export interface LabelIndex {
  /** Label names, sorted. */
  readonly names: readonly string[];
  /** `valueStarts[n]..valueStarts[n + 1]` are the global value indexes of name `n`. */
  readonly valueStarts: Uint32Array;
  /** The symbol ref of each value, per name in increasing order. */
  readonly valueRefs: Uint32Array;
  /**
   * Offsets of postings lists relative to the postings section: `[0]` is the all-series list,
   * `[k + 1]` the list of value `k`; the last entry is the section's content length.
   */
  readonly postingsStarts: Uint32Array;
}

/** Reads exactly `length` bytes at `offset` of `fd`; throws `ERR_CORRUPTION` on a short read. */
export function readExact(fd: number, path: string, offset: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const r = readSync(fd, buf, got, length - got, offset + got);
    if (r === 0) throw corruption(path, `file ends before offset ${offset + length}`);
    got += r;
  }
  return buf;
}

function u32(b: Uint8Array, at: number): number {
  return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
}

/** Reads and checks the header and table of contents of an index of `size` bytes. */
export function readToc(fd: number, path: string, size: number): IndexToc {
  if (size < FILE_HEADER_BYTES + TOC_BYTES) throw corruption(path, `index of ${size} bytes is truncated`);
  checkFileHeader(path, readExact(fd, path, 0, FILE_HEADER_BYTES), INDEX_MAGIC, INDEX_VERSION);
  const end = size - TOC_BYTES;
  const t = readExact(fd, path, end, TOC_BYTES);
  if (crc32(t.subarray(0, TOC_BYTES - CRC_BYTES)) !== u32(t, TOC_BYTES - CRC_BYTES)) {
    throw corruption(path, 'table of contents CRC mismatch (truncated or corrupt index)');
  }
  const offsets = [0, 8, 16, 24].map((at) => u32(t, at) * 2 ** 32 + u32(t, at + 4));
  const toc: IndexToc = { symbols: offsets[0], series: offsets[1], postings: offsets[2], labelIndex: offsets[3], end };
  const bounds = [...offsets, end];
  if (toc.symbols !== FILE_HEADER_BYTES) throw corruption(path, 'symbol table does not follow the header');
  for (let i = 1; i < bounds.length; i++) {
    if (bounds[i] - bounds[i - 1] < CRC_BYTES) throw corruption(path, 'table of contents has inconsistent offsets');
  }
  return toc;
}

/** Checks the CRC-32 of the section `[start, end)` (its last 4 bytes), reading 1 MiB at a time. */
export function verifySection(fd: number, path: string, name: string, start: number, end: number): void {
  const contentEnd = end - CRC_BYTES;
  const piece = Buffer.allocUnsafe(Math.min(1 << 20, Math.max(contentEnd - start, 1)));
  let crc = 0;
  for (let at = start; at < contentEnd; ) {
    const n = Math.min(piece.length, contentEnd - at);
    let got = 0;
    while (got < n) {
      const r = readSync(fd, piece, got, n - got, at + got);
      if (r === 0) throw corruption(path, `${name} section truncated`);
      got += r;
    }
    crc = crc32(piece.subarray(0, n), crc);
    at += n;
  }
  if (crc !== u32(readExact(fd, path, contentEnd, CRC_BYTES), 0)) throw corruption(path, `${name} section CRC mismatch`);
}

/** Reads a whole section into memory and checks its CRC; returns the content without the CRC. */
export function readSection(fd: number, path: string, name: string, start: number, end: number): Buffer {
  const b = readExact(fd, path, start, end - start);
  const content = b.subarray(0, b.length - CRC_BYTES);
  if (crc32(content) !== u32(b, b.length - CRC_BYTES)) throw corruption(path, `${name} section CRC mismatch`);
  return content;
}

/** Decodes the symbol table; checks that symbols are strictly increasing. */
export function decodeSymbols(path: string, content: Buffer): string[] {
  const d = new Decoder(path).reset(content, 0, content.length);
  const count = d.uvarintBelow(content.length + 1, 'symbol count');
  const symbols: string[] = new Array<string>(count);
  let prev = '';
  for (let i = 0; i < count; i++) {
    const len = d.uvarint();
    if (d.offset + len > d.end) throw d.fail('symbol passes the end of the symbol table');
    const s = content.toString('utf8', d.offset, d.offset + len);
    d.offset += len;
    if (i > 0 && !(prev < s)) throw d.fail(`symbols not strictly increasing at ${i}`);
    symbols[i] = prev = s;
  }
  d.expectEnd('symbol table');
  return symbols;
}

/** Decodes the label-value index against `symbols` and the postings section's content length. */
export function decodeLabelIndex(path: string, content: Buffer, symbols: readonly string[], postingsLength: number): LabelIndex {
  const d = new Decoder(path).reset(content, 0, content.length);
  const nameCount = d.uvarintBelow(content.length + 1, 'label name count');
  const names: string[] = [];
  const valueStarts = new Uint32Array(nameCount + 1);
  const refs: number[] = [];
  const starts: number[] = [0];
  let prevName = -1;
  let offset = 0;
  for (let n = 0; n < nameCount; n++) {
    const nameRef = d.uvarintBelow(symbols.length, 'label name ref');
    if (nameRef <= prevName) throw d.fail('label names not strictly increasing');
    prevName = nameRef;
    names.push(symbols[nameRef]);
    valueStarts[n] = refs.length;
    const valueCount = d.uvarintBelow(content.length + 1, 'label value count');
    if (valueCount === 0) throw d.fail(`label ${symbols[nameRef]} has no values`);
    let value = 0;
    for (let v = 0; v < valueCount; v++) {
      const delta = d.uvarint();
      if (v > 0 && delta === 0) throw d.fail('label values not strictly increasing');
      value += delta;
      if (value >= symbols.length) throw d.fail(`label value ref ${value} out of range`);
      refs.push(value);
      const step = d.uvarint();
      if (step === 0) throw d.fail('postings offsets not strictly increasing');
      offset += step;
      if (offset >= postingsLength) throw d.fail(`postings offset ${offset} passes the postings section`);
      starts.push(offset);
    }
  }
  d.expectEnd('label-value index');
  valueStarts[nameCount] = refs.length;
  starts.push(postingsLength);
  return { names, valueStarts, valueRefs: Uint32Array.from(refs), postingsStarts: Uint32Array.from(starts) };
}
