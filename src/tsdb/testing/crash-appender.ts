/**
 * A child process for crash tests: appends numbered batches to a TSDB as fast as it can and
 * prints each batch number on stdout once `commit()` has returned (stdout to a pipe is
 * synchronous on Linux, so a printed number is an acknowledged batch). Tiny blocks make
 * compactions, checkpoints and WAL truncations happen while it runs. It never exits by itself:
 * the test kills it with SIGKILL.
 *
 * Usage: node --import tsx crash-appender.ts <dataDir> <seriesPerBatch> <startBatch>
 */
import { Labels } from '../../model/index.js';
import { Db } from '../db.js';

const [dir, seriesArg, startArg] = process.argv.slice(2);
const seriesPerBatch = Number(seriesArg);
const db = await Db.open({ dir, fsync: { mode: 'never' }, blockRangeMs: 60_000, retentionMs: 0, walSegmentBytes: 64 * 1024, walCheckpointBytes: 96 * 1024 });
const labels = Array.from({ length: seriesPerBatch }, (_, i) => Labels.from({ __name__: 'crash_metric', series: String(i) }));

async function run(): Promise<void> {
  for (let k = Number(startArg); ; k++) {
    const app = db.appender();
    for (let i = 0; i < seriesPerBatch; i++) app.append(0, labels[i], k * 1000, k * 1000 + i);
    await app.commit();
    // Wait until the acknowledgement is in the pipe (see src/tsdb/wal/testdata/crash-writer.ts).
    await new Promise<void>((resolve) => process.stdout.write(`${k}\n`, () => resolve()));
    if (k % 50 === 0) await db.compact();
  }
}
void run();
