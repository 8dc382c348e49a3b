import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { scenarioByName } from '../sim/index.js';
import { tempDir } from '../tsdb/testing/temp-dir.js';
import { HISTORY_SCRAPE_BUDGET, historyFit, isFreshDataDir } from './demo.js';

const H = 3_600_000;
const cleanups = useCleanups();

describe('historyFit', () => {
  it.each([
    ['demo', 3 * H, 15_000, 3 * H],
    ['kv-cache-pressure', 3 * H, 15_000, 3 * H],
    ['demo', 3 * H, 1000, 833_000], // 24 targets, 833 scrapes of 1 s
    ['fleet-100', 3 * H, 15_000, 86 * 15_000],
    ['fleet-1000', 3 * H, 15_000, 0], // 8 scrapes fit, under 10 minutes: none
    ['fleet-5000', 3 * H, 15_000, 0],
    ['fleet-1000', 5 * 60_000, 15_000, 0], // a shorter span wanted that does not fit either: none
    ['demo', 5 * 60_000, 15_000, 5 * 60_000],
  ])('%s, %d ms wanted at a %d ms interval: %d ms', (name, wanted, interval, want) => {
    expect(historyFit(wanted, scenarioByName(name), interval)).toBe(want);
  });

  it('keeps the demo fleet within the budget', () => {
    expect(HISTORY_SCRAPE_BUDGET).toBeGreaterThanOrEqual(24 * (3 * H) / 15_000);
  });
});

describe('isFreshDataDir', () => {
  it.each([
    ['a missing directory', (_d: string) => 'missing', true],
    ['an empty directory', (d: string) => d, true],
    ['only the demo files', (d: string) => (mkdirSync(path.join(d, 'sim')), writeFileSync(path.join(d, 'sim', 'file_sd.json'), '[]'), d), true],
    ['a WAL', (d: string) => (mkdirSync(path.join(d, 'wal')), d), false],
    ['any other file', (d: string) => (writeFileSync(path.join(d, 'notes.txt'), ''), d), false],
  ])('%s', async (_name, setup, want) => {
    const t = tempDir('fresh');
    cleanups.push(t.remove);
    expect(await isFreshDataDir(path.resolve(t.dir, setup(t.dir)))).toBe(want);
  });
});
