/**
 * The child process of the crash test: opens the WAL in the directory given as its argument and
 * logs numbered SAMPLES records forever, writing each record's number to stdout after `log`
 * returned (the acknowledgement). The test kills it with SIGKILL at some point.
 *
 * Record `i` holds `SAMPLES_PER_RECORD` samples: ref `i * 10 + k`, timestamp `i`, value `i + k / 8`.
 * Run: node --import tsx src/tsdb/wal/testdata/crash-writer.ts <dir>
 */
import { noopLogger } from '../../../model/index.js';
import { ByteBuffer } from '../byte-buffer.js';
import { RecordType } from '../format.js';
import { encodeSamples } from '../records.js';
import { Wal } from '../wal.js';

// Samples in each record the writer logs.
const SAMPLES_PER_RECORD = 10;

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: crash-writer <dir>');
const wal = Wal.open({ dir, fsync: { mode: 'never' }, logger: noopLogger, segmentSizeBytes: 16 * 1024 });
const buf = new ByteBuffer();
const refs = new Float64Array(SAMPLES_PER_RECORD);
const ts = new Float64Array(SAMPLES_PER_RECORD);
const values = new Float64Array(SAMPLES_PER_RECORD);
for (let i = 0; ; i++) {
  for (let k = 0; k < SAMPLES_PER_RECORD; k++) {
    refs[k] = i * 10 + k;
    ts[k] = i;
    values[k] = i + k / 8;
  }
  buf.reset();
  encodeSamples(buf, refs, ts, values, SAMPLES_PER_RECORD);
  wal.log([{ type: RecordType.SAMPLES, payload: buf.subarray() }]);
  // Wait until the acknowledgement has reached the pipe before logging the next record. A pipe
  // write can be queued (EAGAIN while the reader lags); a loop that never yields would then
  // never flush it, and the test would wait for acknowledgements that never come.
  await new Promise<void>((resolve) => process.stdout.write(`${i}\n`, () => resolve()));
}
