/**
 * Writes the committed WAL fixture of format v1 into `src/tsdb/wal/testdata/v1/`: one checkpoint
 * (through segment 0) and one segment (1). fixture.test.ts reads it and also regenerates it into
 * a temporary directory to check that the writer still produces the same bytes.
 *
 * Run: node --import tsx src/tsdb/wal/testdata/make-fixture.ts
 */
import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Labels, STALE_NAN, noopLogger } from '../../../model/index.js';
import { ByteBuffer } from '../byte-buffer.js';
import { writeCheckpoint } from '../checkpoint.js';
import { RecordType } from '../format.js';
import { encodeSamples, encodeSeries } from '../records.js';
import { HEAD_CHUNK_ENCODER, HEAD_CHUNK_OPEN, encodeHeadChunk } from '../head-chunk-record.js';
import { XorChunk, newXorEncoderState } from '../../chunkenc/index.js';
import { Wal, type WalRecord } from '../wal.js';

function series(entries: [number, Record<string, string>][]): WalRecord {
  const buf = new ByteBuffer();
  encodeSeries(
    buf,
    entries.map(([ref, labels]) => ({ ref, labels: Labels.from(labels) })),
  );
  return { type: RecordType.SERIES, payload: buf.subarray().slice() };
}

// Values go straight into a Float64Array: a plain array would quiet the stale marker's NaN.
function samples(refs: number[], tsMs: number[], values: (i: number, out: Float64Array) => void): WalRecord {
  const v = new Float64Array(refs.length);
  values(refs.length, v);
  const buf = new ByteBuffer();
  encodeSamples(buf, refs, tsMs, v, refs.length);
  return { type: RecordType.SAMPLES, payload: buf.subarray().slice() };
}

function headChunks(): WalRecord {
  const sealed = new XorChunk();
  sealed.append(1_700_000_000_000, 1);
  sealed.append(1_700_000_015_000, STALE_NAN);
  const open = new XorChunk();
  open.append(1_700_000_030_000, 42.5);
  // An open chunk saved with its encoder state, as checkpoints write them.
  const resumable = new XorChunk();
  resumable.append(1_700_000_030_000, 7);
  resumable.append(1_700_000_045_000, 7.25);
  const encoder = newXorEncoderState();
  resumable.encoderState(encoder);
  const buf = new ByteBuffer();
  encodeHeadChunk(buf, 2, { minTimeMs: 1_700_000_000_000, maxTimeMs: 1_700_000_015_000, flags: 0, bytes: sealed.sealedBytes() });
  encodeHeadChunk(buf, 2, { minTimeMs: 1_700_000_030_000, maxTimeMs: 1_700_000_030_000, flags: HEAD_CHUNK_OPEN, bytes: open.sealedBytes() });
  encodeHeadChunk(buf, 300, {
    minTimeMs: 1_700_000_030_000,
    maxTimeMs: 1_700_000_045_000,
    flags: HEAD_CHUNK_OPEN | HEAD_CHUNK_ENCODER,
    bytes: resumable.sealedBytes(),
    encoder,
  });
  return { type: RecordType.HEAD_CHUNK, payload: buf.subarray().slice() };
}

/** Writes the v1 fixture into `dir`, which must not exist or be empty. */
export function writeFixture(dir: string): void {
  const wal = Wal.open({ dir, fsync: { mode: 'never' }, logger: noopLogger });
  const first = [
    series([[1, { __name__: 'up', job: 'vllm' }]]),
    samples([1, 1], [1_700_000_000_000, 1_700_000_015_000], (_n, v) => {
      v[0] = 1;
      v[1] = 0;
    }),
  ];
  wal.log(first);
  wal.cutSegment();
  wal.log([
    series([
      [2, { __name__: 'llm_requests_total', az: 'us-east-1a', model: 'llama-3-8b' }],
      [300, { __name__: 'gpu_temperature_celsius', gpu: '0', site: 'Zürich' }],
    ]),
    samples(
      [2, 300, 2, 300, 1],
      [1_700_000_030_000, 1_700_000_030_000, 1_700_000_045_000, 1_700_000_029_999, -5_000],
      (_n, v) => {
        v[0] = 42.5;
        v[1] = -Infinity;
        v[2] = STALE_NAN;
        v[3] = -0;
        v[4] = 1e308;
      },
    ),
  ]);
  // Format v1 also has out-of-order samples and encoded head chunks (one sealed, one open).
  const ooo = samples([2], [1_700_000_020_000], (_n, v) => {
    v[0] = 41;
  });
  wal.log([{ type: RecordType.OOO_SAMPLES, payload: ooo.payload }, headChunks()]);
  writeCheckpoint(dir, { throughSegment: 0, write: (log) => log(first), logger: noopLogger });
  wal.truncateBefore(1);
  wal.close();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = fileURLToPath(new URL('./v1/', import.meta.url));
  fs.rmSync(dir, { recursive: true, force: true });
  writeFixture(dir);
}
