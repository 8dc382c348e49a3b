import { spawn } from 'node:child_process';
import { once } from 'node:events';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { MemoryLogger } from '../../model/index.js';
import { RecordType } from './format.js';
import { decodeSamples } from './records.js';
import { replayWal } from './replay.js';
import { useTempDirs } from './testing/helpers.js';

const tempDir = useTempDirs();
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const writer = fileURLToPath(new URL('./testdata/crash-writer.ts', import.meta.url));

it('keeps every acknowledged record when the writer is killed with SIGKILL', async () => {
  const dir = path.join(tempDir(), 'wal');
  const child = spawn(process.execPath, ['--import', 'tsx', writer, dir], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'close');
  let lastAck = -1;
  const lines = readline.createInterface({ input: child.stdout });
  // Under a loaded machine the child can be slow to start; never let it outlive the test.
  const watchdog = setTimeout(() => child.kill('SIGKILL'), 150_000);
  try {
    for await (const line of lines) {
      const n = Number(line);
      expect(n, `line ${JSON.stringify(line)}`).toBe(lastAck + 1); // acknowledged in order
      lastAck = n;
      if (n === 500) child.kill('SIGKILL'); // later lines still drain from the pipe
    }
  } finally {
    clearTimeout(watchdog);
    child.kill('SIGKILL'); // never leave the writer running when an assertion fails
  }
  const [code, signal] = await exited;
  expect({ code, signal, stderr }).toMatchObject({ code: null, signal: 'SIGKILL' });
  expect(lastAck, `acknowledged records before the kill (stderr: ${stderr})`).toBeGreaterThanOrEqual(500);

  let next = 0;
  const report = replayWal(dir, {
    logger: new MemoryLogger(),
    onRecord: (type, payload) => {
      expect(type).toBe(RecordType.SAMPLES);
      const i = next++;
      let k = 0;
      decodeSamples(payload, (ref, tMs, value) => {
        expect([ref, tMs, value]).toEqual([i * 10 + k, i, i + k / 8]);
        k++;
      });
      expect(k).toBe(10);
    },
  });
  expect(next).toBeGreaterThan(lastAck); // records after the last ack may or may not be there
  expect(report.segmentsRead).toBeGreaterThan(1);
}, 180_000);
