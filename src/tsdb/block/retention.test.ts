import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blocksToDelete, deleteBlock, type RetentionBlock, type RetentionOptions } from './index.js';
import { tempDir } from './testing/helpers.js';

const H = 3_600_000;

/** Blocks A, B, C, ... of 2 h each, oldest first, with the given sizes. */
function blocks(...sizes: number[]): RetentionBlock[] {
  return sizes.map((sizeBytes, i) => ({ ulid: String.fromCharCode(65 + i), minTimeMs: i * 2 * H, maxTimeMs: (i + 1) * 2 * H, sizeBytes }));
}

describe('blocksToDelete', () => {
  it.each<[string, RetentionBlock[], RetentionOptions, string[]]>([
    ['no blocks', [], { retentionMs: H, retentionBytes: 1 }, []],
    ['no limits', blocks(1, 1, 1), {}, []],
    ['zero limits disable the rules', blocks(1, 1, 1), { retentionMs: 0, retentionBytes: 0 }, []],
    ['time: everything within retention', blocks(1, 1, 1), { retentionMs: 6 * H }, []],
    // Newest max is 6 h; B ends 2 h earlier, A 4 h earlier.
    ['time: a block exactly retention behind is deleted (>=)', blocks(1, 1, 1), { retentionMs: 4 * H }, ['A']],
    ['time: just under retention is kept', blocks(1, 1, 1), { retentionMs: 4 * H + 1 }, []],
    ['time: everything but the newest', blocks(1, 1, 1), { retentionMs: 1 }, ['A', 'B']],
    ['time: the newest block is never deleted by time', blocks(1), { retentionMs: 1 }, []],
    ['size: under the limit', blocks(10, 10, 10), { retentionBytes: 30 }, []],
    ['size: oldest go first', blocks(10, 10, 10), { retentionBytes: 29 }, ['A']],
    ['size: keeps only what fits from the newest', blocks(10, 10, 10), { retentionBytes: 15 }, ['A', 'B']],
    ['size: even the newest when it alone is too big', blocks(10, 10, 10), { retentionBytes: 5 }, ['A', 'B', 'C']],
    ['size: the head counts first', blocks(10, 10, 10), { retentionBytes: 30, headBytes: 5 }, ['A']],
    ['size: everything once the head alone is too big', blocks(1, 1), { retentionBytes: 10, headBytes: 11 }, ['A', 'B']],
    ['size: stops at the first block over (no skipping to fit smaller ones)', blocks(1, 100, 1), { retentionBytes: 50 }, ['A', 'B']],
    ['both: the union', blocks(10, 10, 10, 10), { retentionMs: 6 * H, retentionBytes: 25 }, ['A', 'B']],
    ['both: time wins when it deletes more', blocks(10, 10, 10, 10), { retentionMs: 2 * H, retentionBytes: 35 }, ['A', 'B', 'C']],
  ])('%s', (_name, input, opts, want) => {
    expect(blocksToDelete(input, opts)).toEqual(want);
  });

  it('orders by maxTimeMs whatever the input order', () => {
    const input = blocks(1, 1, 1, 1).reverse();
    expect(blocksToDelete(input, { retentionMs: 4 * H })).toEqual(['A', 'B']);
  });

  it('measures from the newest block, not the clock', () => {
    const old = blocks(1, 1, 1);
    expect(blocksToDelete(old, { retentionMs: 5 * H })).toEqual([]);
  });

  it('handles overlapping blocks of a larger compaction level by their end', () => {
    const input: RetentionBlock[] = [
      { ulid: 'BIG', minTimeMs: 0, maxTimeMs: 8 * H, sizeBytes: 1 },
      { ulid: 'NEW', minTimeMs: 8 * H, maxTimeMs: 10 * H, sizeBytes: 1 },
      { ulid: 'OLD', minTimeMs: 0, maxTimeMs: 2 * H, sizeBytes: 1 },
    ];
    expect(blocksToDelete(input, { retentionMs: 3 * H })).toEqual(['OLD']);
  });
});

describe('deleteBlock', () => {
  it('removes the block directory and leaves no .deleted behind', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const block = join(dir, '01HF859JX0KEVN5G8KVF7WQ96G');
      mkdirSync(join(block, 'chunks'), { recursive: true });
      writeFileSync(join(block, 'chunks', '000001'), 'x');
      writeFileSync(join(block, 'meta.json'), '{}');
      await deleteBlock(block);
      expect(existsSync(block)).toBe(false);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      cleanup();
    }
  });

  it('replaces a stale .deleted directory of the same block', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const block = join(dir, '01HF859JX0KEVN5G8KVF7WQ96G');
      mkdirSync(block);
      mkdirSync(block + '.deleted');
      await deleteBlock(block);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      cleanup();
    }
  });

  it('rejects when the block does not exist', async () => {
    const { dir, cleanup } = tempDir();
    try {
      await expect(deleteBlock(join(dir, 'nope'))).rejects.toThrow(/ENOENT/);
    } finally {
      cleanup();
    }
  });
});
