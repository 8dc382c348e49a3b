import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryLogger, noopLogger } from '../../model/index.js';
import { StorageErrorCode, collectSeries, isStorageError } from '../../storage/index.js';
import { openBlock, openBlocks } from './index.js';
import { tempDir } from './testing/helpers.js';

const V1_ID = '01HF859JX0KEVN5G8KVF7WQ96G';
const V1_DIR = fileURLToPath(new URL(`./testdata/v1/${V1_ID}`, import.meta.url));
// Section offsets of the v1 fixture's index, read from its table of contents (the last 36
// bytes: four big-endian u64 offsets and a CRC-32).
const INDEX_BYTES = readFileSync(join(V1_DIR, 'index'));
const INDEX_SIZE = INDEX_BYTES.length;
const toc = (i: number): number => Number(INDEX_BYTES.readBigUInt64BE(INDEX_SIZE - 36 + 8 * i));
const SECTIONS: [string, number][] = [
  ['header', 0],
  ['symbol table', toc(0) + 5],
  ['series', toc(1) + 3],
  ['postings', toc(2) + 2],
  ['label-value index', toc(3) + 4],
  ['table of contents', INDEX_SIZE - 10],
];

let dir: string;
let cleanup: () => void;
let block: string;

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  block = join(dir, V1_ID);
  cpSync(V1_DIR, block, { recursive: true });
});

afterEach(() => cleanup());

function corruptionOf(fn: () => unknown): { message: string } {
  try {
    fn();
  } catch (err) {
    if (isStorageError(err, StorageErrorCode.CORRUPTION)) return { message: err.message };
    throw err;
  }
  throw new Error('expected ERR_CORRUPTION, got success');
}

function flipByte(file: string, offset: number): void {
  const bytes = readFileSync(file);
  bytes[offset] ^= 0x5a;
  writeFileSync(file, bytes);
}

describe('a damaged index fails to open with ERR_CORRUPTION naming the file', () => {
  it.each(SECTIONS)('one flipped byte in the %s', (_section, offset) => {
    const index = join(block, 'index');
    flipByte(index, offset);
    expect(corruptionOf(() => openBlock(block, noopLogger)).message).toContain(index);
  });

  it.each([0, 8, 100, INDEX_SIZE - 36, INDEX_SIZE - 1])('truncated to %d bytes', (size) => {
    truncateSync(join(block, 'index'), size);
    expect(corruptionOf(() => openBlock(block, noopLogger)).message).toContain(join(block, 'index'));
  });

  it('a missing index', () => {
    rmSync(join(block, 'index'));
    expect(corruptionOf(() => openBlock(block, noopLogger)).message).toContain('index');
  });

  it('a flipped byte in the series section is caught by the CRC only when verifying', () => {
    flipByte(join(block, 'index'), toc(1) + 3);
    expect(() => openBlock(block, noopLogger, { verifyChecksums: true })).toThrow(/series section CRC/);
    openBlock(block, noopLogger, { verifyChecksums: false }).close();
  });
});

describe('a damaged meta.json fails with ERR_CORRUPTION naming it', () => {
  const meta = () => JSON.parse(readFileSync(join(block, 'meta.json'), 'utf8')) as Record<string, unknown>;
  it.each<[string, () => void]>([
    ['missing', () => rmSync(join(block, 'meta.json'))],
    ['not JSON', () => writeFileSync(join(block, 'meta.json'), '{"version": 1,')],
    ['another version', () => writeFileSync(join(block, 'meta.json'), JSON.stringify({ ...meta(), version: 2 }))],
    ['another ulid', () => writeFileSync(join(block, 'meta.json'), JSON.stringify({ ...meta(), ulid: '01HF859JX0KEVN5G8KVF7WQ96H' }))],
    ['empty range', () => writeFileSync(join(block, 'meta.json'), JSON.stringify({ ...meta(), maxTimeMs: meta().minTimeMs }))],
    ['no stats', () => writeFileSync(join(block, 'meta.json'), JSON.stringify({ ...meta(), stats: null }))],
  ])('%s', (_name, damage) => {
    damage();
    expect(corruptionOf(() => openBlock(block, noopLogger)).message).toContain(join(block, 'meta.json'));
  });
});

describe('damaged chunk files', () => {
  it('a bad header fails to open', () => {
    flipByte(join(block, 'chunks', '000001'), 1);
    expect(corruptionOf(() => openBlock(block, noopLogger)).message).toContain(join(block, 'chunks', '000001'));
  });

  it('a gap in the numbering fails to open', () => {
    renameSync(join(block, 'chunks', '000001'), join(block, 'chunks', '000002'));
    expect(corruptionOf(() => openBlock(block, noopLogger)).message).toContain('000002');
  });

  it('a flipped byte inside a chunk ends that series with ERR_CORRUPTION from err()', () => {
    flipByte(join(block, 'chunks', '000001'), 20);
    const b = openBlock(block, noopLogger);
    try {
      const set = b.querier(0, Number.MAX_SAFE_INTEGER).select([]);
      expect(set.next()).toBe(true);
      const it = set.at().iterator();
      while (it.next());
      const err = it.err();
      expect(isStorageError(err, StorageErrorCode.CORRUPTION)).toBe(true);
      expect(err?.message).toMatch(/000001: chunk CRC mismatch/);
      expect(() => collectSeries(b.querier(0, Number.MAX_SAFE_INTEGER).select([]))).toThrow(/CRC mismatch/);
    } finally {
      b.close();
    }
  });

  it('a truncated chunk file ends iteration with ERR_CORRUPTION', () => {
    truncateSync(join(block, 'chunks', '000001'), 150);
    const b = openBlock(block, noopLogger);
    try {
      expect(() => collectSeries(b.querier(0, Number.MAX_SAFE_INTEGER).select([]))).toThrow(/passes the end/);
    } finally {
      b.close();
    }
  });
});

describe('openBlocks', () => {
  it('removes leftover .tmp and .deleted directories and opens the rest', () => {
    const tmp = join(dir, '01HF859JX0KEVN5G8KVF7WQ96Z.tmp');
    const deleted = join(dir, '01HF859JX0KEVN5G8KVF7WQ96Y.deleted');
    mkdirSync(join(tmp, 'chunks'), { recursive: true });
    writeFileSync(join(tmp, 'index'), 'half');
    cpSync(V1_DIR, deleted, { recursive: true });
    mkdirSync(join(dir, 'wal'));
    const logger = new MemoryLogger();
    const blocks = openBlocks(dir, logger);
    expect(blocks.map((b) => b.meta.ulid)).toEqual([V1_ID]);
    blocks.forEach((b) => b.close());
    expect(existsSync(tmp)).toBe(false);
    expect(existsSync(deleted)).toBe(false);
    expect(existsSync(join(dir, 'wal'))).toBe(true);
    expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.fields.reason).sort()).toEqual(['interrupted delete', 'interrupted write']);
  });

  it('fails on a corrupt block', () => {
    rmSync(join(block, 'meta.json'));
    expect(corruptionOf(() => openBlocks(dir, noopLogger)).message).toContain('meta.json');
  });
});

describe('references past the end of a file', () => {
  it('a chunk reference beyond the segment file ends iteration with ERR_CORRUPTION', () => {
    // Keep only the file header: every chunk reference now points past the end.
    truncateSync(join(block, 'chunks', '000001'), 8);
    const b = openBlock(block, noopLogger);
    try {
      const set = b.querier(0, Number.MAX_SAFE_INTEGER).select([]);
      expect(set.next()).toBe(true);
      const it = set.at().iterator();
      expect(it.next()).toBe(false);
      expect(isStorageError(it.err(), StorageErrorCode.CORRUPTION)).toBe(true);
      expect(it.err()?.message).toMatch(/000001: read at offset 8 passes the end/);
    } finally {
      b.close();
    }
  });
});
