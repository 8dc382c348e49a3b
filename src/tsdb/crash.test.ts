import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { matcher } from '../model/index.js';
import { collectSeries } from '../storage/index.js';
import { Db } from './db.js';
import { tempDir } from './testing/temp-dir.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const SERIES = 40;
const cleanups = useCleanups();

/** Runs the crash appender until it has acknowledged `acks` batches, then kills it with SIGKILL. */
function runAndKill(dir: string, startBatch: number, acks: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'testing/crash-appender.ts'), dir, String(SERIES), String(startBatch)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let last = -1;
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      last = Number(line);
      if (last >= startBatch + acks) child.kill('SIGKILL');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 70_000); // never leak the child
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') resolve(last);
      else reject(new Error(`crash appender exited with ${code}: ${stderr}`));
    });
  });
}

async function verify(dir: string, acked: readonly [number, number][]): Promise<{ blocks: number }> {
  const db = await Db.open({ dir, retentionMs: 0, blockRangeMs: 60_000 });
  try {
    const q = db.querier(0, Number.MAX_SAFE_INTEGER);
    const got = collectSeries(q.select([matcher('=', '__name__', 'crash_metric')]));
    q.close();
    expect(got).toHaveLength(SERIES);
    for (const s of got) {
      const i = Number(s.labels.get('series'));
      const byT = new Map(s.samples.map((x) => [x.tMs, x.value]));
      for (const [first, last] of acked) {
        for (let k = first; k <= last; k++) {
          const v = byT.get(k * 1000);
          if (v !== k * 1000 + i) throw new Error(`acknowledged batch ${k} lost for series ${i}: got ${v}`);
        }
      }
      // Nothing past what the killed process could have written, and no duplicates.
      expect(new Set(s.samples.map((x) => x.tMs)).size).toBe(s.samples.length);
    }
    return { blocks: db.stats().blocks.count };
  } finally {
    await db.close();
  }
}

describe('crash safety (kill -9)', () => {
  it('keeps every acknowledged sample across repeated kills during appends, compactions and checkpoints', async () => {
    const t = tempDir('crash');
    cleanups.push(t.remove);
    let next = 1;
    const acked: [number, number][] = [];
    for (let round = 0; round < 3; round++) {
      const lastAck = await runAndKill(t.dir, next, 300 + round * 37);
      expect(lastAck).toBeGreaterThanOrEqual(next + 300);
      acked.push([next, lastAck]);
      const { blocks } = await verify(t.dir, acked);
      if (round === 2) expect(blocks).toBeGreaterThan(0);
      // Resume after everything the killed process may have written (acked or not).
      next = lastAck + 10;
    }
  }, 240_000);
});
