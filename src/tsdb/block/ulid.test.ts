import { describe, expect, it } from 'vitest';
import { blockIdTimeMs, isBlockId, newBlockId } from './index.js';
import { seededRandom } from './testing/helpers.js';

describe('block ids', () => {
  it.each<[number, string]>([
    [0, '0000000000'],
    [1, '0000000001'],
    [32, '0000000010'],
    [1_700_007_300_000, '01HF859JX0'],
    [2 ** 48 - 1, '7ZZZZZZZZZ'],
  ])('encodes time %d as %s', (tMs, prefix) => {
    const id = newBlockId(() => tMs, () => 0);
    expect(id).toBe(prefix + '0000000000000000');
    expect(isBlockId(id)).toBe(true);
    expect(blockIdTimeMs(id)).toBe(tMs);
  });

  it('draws the random part from the injected source', () => {
    expect(newBlockId(() => 0, () => 0.999999).slice(10)).toBe('Z'.repeat(16));
    expect(newBlockId(() => 5, seededRandom(1))).toBe(newBlockId(() => 5, seededRandom(1)));
    expect(newBlockId(() => 5, seededRandom(1))).not.toBe(newBlockId(() => 5, seededRandom(2)));
  });

  it('sorts by time as strings', () => {
    const random = seededRandom(3);
    const times = [1, 31, 32, 1000, 1_699_999_999_999, 1_700_000_000_000, 2 ** 47];
    const ids = times.map((t) => newBlockId(() => t, random));
    expect([...ids].sort()).toEqual(ids);
  });

  it.each([-1, 2 ** 48, 1.5, Number.NaN])('rejects clock reading %d', (t) => {
    expect(() => newBlockId(() => t, Math.random)).toThrow(RangeError);
  });

  it.each(['', '01HF859JX0KEVN5G8KVF7WQ96', '01HF859JX0KEVN5G8KVF7WQ96GG', '81HF859JX0KEVN5G8KVF7WQ96G', '01HF859JX0KEVN5G8KVF7WQ96U', '01hf859jx0kevn5g8kvf7wq96g', '01HF859JX0KEVN5G8KVF7WQ96G.tmp'])(
    'does not take %j for an id',
    (name) => expect(isBlockId(name)).toBe(false),
  );
});
