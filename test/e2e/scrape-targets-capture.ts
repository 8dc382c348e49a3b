/**
 * Captures the `/api/v1/targets` golden from a real Prometheus 2.42 scraping the tiny target on
 * loopback. Run through `npm run update-goldens -- scrape-targets`; review the diff.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { findPeer, freePort, startPeer, waitFor } from '../peers/peers.js';
import { TARGETS_GOLDEN, allScraped, goldenConfig, normalizeTargets } from '../../src/ingest/scrape/testing/targets-golden.js';
import { startTinyTarget, writeTargetsGolden } from './scrape-targets-lib.js';

/** Starts Prometheus on the golden configuration, waits for every target's first scrape, writes the golden; returns 1. */
export async function updateScrapeTargetsGolden(log: (line: string) => void): Promise<number> {
  const prometheus = findPeer('prometheus');
  if (prometheus === null) throw new Error('the scrape-targets golden needs prometheus on PATH (Debian package prometheus)');
  log(`capturing from ${(await import('node:child_process')).spawnSync(prometheus, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0]}`);
  const t = tempDir('targets-golden');
  const target = await startTinyTarget();
  try {
    const downPort = await freePort();
    const port = await freePort();
    const config = path.join(t.dir, 'prometheus.yml');
    fs.writeFileSync(config, goldenConfig(target.port, downPort));
    const peer = startPeer(prometheus, [`--config.file=${config}`, `--storage.tsdb.path=${path.join(t.dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn']);
    try {
      const url = `http://127.0.0.1:${port}/api/v1/targets`;
      const body = await waitFor(`every target scraped (${peer.output().slice(-300)})`, async () => {
        const b: unknown = await (await fetch(url)).json();
        return allScraped(b) ? b : undefined;
      });
      writeTargetsGolden(normalizeTargets(body, { TARGET_PORT: target.port, DOWN_PORT: downPort, SERVER_PORT: port }, os.hostname()));
      log(`wrote ${path.relative(process.cwd(), TARGETS_GOLDEN)}`);
    } finally {
      await peer.stop();
    }
    return 1;
  } finally {
    await target.close();
    t.remove();
  }
}
