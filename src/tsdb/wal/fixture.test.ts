import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../model/index.js';
import { replayWithCheckpoint } from './checkpoint.js';
import { writeFixture } from './testdata/make-fixture.js';
import { STALE_BITS, bitsOf, copyDir, decodeRecord, useTempDirs, type DecodedRecord } from './testing/helpers.js';

const tempDir = useTempDirs();
const fixtureV1 = fileURLToPath(new URL('./testdata/v1/', import.meta.url));

function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const file = path.join(dir, entry);
    if (fs.statSync(file).isFile()) out[entry] = fs.readFileSync(file).toString('hex');
  }
  return out;
}

describe('format v1 fixture', () => {
  it('replays to exactly the records it was written with', () => {
    const dir = path.join(tempDir(), 'wal');
    copyDir(fixtureV1, dir); // replay may repair files: never run it on the committed copy
    const records: DecodedRecord[] = [];
    const logger = new MemoryLogger();
    const report = replayWithCheckpoint(dir, { logger, onRecord: (type, payload) => records.push(decodeRecord(type, payload)) });
    expect(records).toEqual([
      { type: 'series', series: [[1, { __name__: 'up', job: 'vllm' }]] },
      { type: 'samples', samples: [[1, 1_700_000_000_000, bitsOf(1)], [1, 1_700_000_015_000, bitsOf(0)]] },
      {
        type: 'series',
        series: [
          [2, { __name__: 'llm_requests_total', az: 'us-east-1a', model: 'llama-3-8b' }],
          [300, { __name__: 'gpu_temperature_celsius', gpu: '0', site: 'Zürich' }],
        ],
      },
      {
        type: 'samples',
        samples: [
          [2, 1_700_000_030_000, '4045400000000000'], // 42.5
          [300, 1_700_000_030_000, 'fff0000000000000'], // -Inf
          [2, 1_700_000_045_000, STALE_BITS],
          [300, 1_700_000_029_999, '8000000000000000'], // -0
          [1, -5_000, bitsOf(1e308)],
        ],
      },
      { type: 'ooo-samples', samples: [[2, 1_700_000_020_000, bitsOf(41)]] },
      {
        type: 'head-chunks',
        chunks: [
          // A sealed chunk (1, then the stale marker) and an open one (42.5), as XOR chunk bytes.
          [2, 1_700_000_000_000, 1_700_000_015_000, 0, '000280a0abfef9623ff00000000000009875c3f40000000000000020', null],
          [2, 1_700_000_030_000, 1_700_000_030_000, 1, '0001e0f4aefef9624045400000000000', null],
          // Open, with the encoder state: delta 15 s, last value 7.25 (0x401d0000 00000000), window 15/48, 158 bits.
          [300, 1_700_000_030_000, 1_700_000_045_000, 3, '0002e0f4aefef962401c0000000000009875de0c', [15000, 1075642368, 0, 15, 48, 158]],
        ],
      },
    ]);
    expect(report).toEqual({
      checkpoint: 0,
      checkpointReport: { segmentsRead: 1, recordsRead: 2, bytesRead: 79, truncated: null },
      segments: { segmentsRead: 1, recordsRead: 4, bytesRead: 354, truncated: null },
    });
    expect(logger.lines.filter((l) => l.level !== 'debug')).toEqual([]);
  });

  it('is what the current writer produces, byte for byte', () => {
    // Fails when the writer's output changes. A deliberate format change bumps the version,
    // commits a new fixture beside this one, and keeps the test above reading v1.
    const dir = path.join(tempDir(), 'v1');
    writeFixture(dir);
    expect(filesOf(dir)).toEqual(filesOf(fixtureV1));
  });
});
