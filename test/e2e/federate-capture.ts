/**
 * Captures the `/federate` golden from Debian's Prometheus 2.42: starts it with the remote write
 * receiver on, pushes the federation data set with timestamps next to the wall clock, asks every
 * case, and rewrites test/e2e/testdata/federate/federate.json. Run through
 * `npm run update-goldens -- federate`; review the diff (every timestamp moves with the capture
 * time, the rest should not).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { findPeer, freePort, startPeer, waitFor } from '../peers/peers.js';
import { FEDERATE_CASES, FEDERATE_VALID_FOR_MS, pushFederateDataset } from './federate-data.js';
import { askFederate, writeFederateGolden, type FederateAnswer } from './federate-lib.js';

/** Captures and writes the golden; returns the number of files written (1). */
export async function updateFederateGolden(log: (line: string) => void): Promise<number> {
  const prometheus = findPeer('prometheus');
  if (prometheus === null) throw new Error('the federate golden needs prometheus on PATH (Debian package prometheus)');
  const version = spawnSync(prometheus, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
  log(`capturing from ${version}`);
  const t = tempDir('federate-golden');
  const config = path.join(t.dir, 'prometheus.yml');
  fs.writeFileSync(config, 'global:\n  scrape_interval: 1h\n');
  const port = await freePort();
  const peer = startPeer(prometheus, [
    `--config.file=${config}`,
    `--storage.tsdb.path=${path.join(t.dir, 'tsdb')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--web.enable-remote-write-receiver',
    '--log.level=warn',
  ]);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`Prometheus ready (${peer.output().slice(-300)})`, async () => ((await fetch(`${base}/-/ready`)).ok ? true : undefined));
    const baseMs = Math.floor(Date.now() / 1000) * 1000;
    await pushFederateDataset(base, baseMs);
    const nowMs = Date.now();
    const answers: FederateAnswer[] = [];
    for (const c of FEDERATE_CASES) answers.push(await askFederate(base, c));
    const took = Date.now() - baseMs;
    if (took >= FEDERATE_VALID_FOR_MS) throw new Error(`the capture took ${took} ms after the base time; the data set only holds for ${FEDERATE_VALID_FOR_MS} ms: run it again`);
    writeFederateGolden({ capturedFrom: version, baseMs, nowMs, answers });
    log(`${answers.length} answers, base time ${new Date(baseMs).toISOString()}`);
    return 1;
  } finally {
    await peer.stop();
    t.remove();
  }
}
