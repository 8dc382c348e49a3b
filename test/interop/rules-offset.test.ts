// Groups are evaluated at the same instants as in Prometheus: Debian's Prometheus 2.42 runs three
// groups at a 2 s interval, and the timestamps of the samples they record (the evaluation
// instants) sit at the offsets `evalTimestampMs` derives from the xxHash64 of {file, name}.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { evalTimestampMs, groupOffsetNs } from '../../src/rules/index.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { freePort, itWithPeer, startReadyPeer, waitFor } from '../peers/peers.js';

const INTERVAL_MS = 2000;
const GROUPS = ['alpha', 'kv-cache pre-scaling', 'ünïcode'];

describe('rule group evaluation offsets against Prometheus 2.42', () => {
  itWithPeer('every group runs at its hash offset', 'prometheus', async (prometheus) => {
    const t = tempDir('rules-offset');
    const rulesFile = path.join(t.dir, 'rules.json');
    fs.writeFileSync(rulesFile, JSON.stringify({ groups: GROUPS.map((name, i) => ({ name, rules: [{ record: `offset_probe_${i}`, expr: 'vector(1)' }] })) }));
    const config = path.join(t.dir, 'prometheus.yml');
    fs.writeFileSync(config, `global:\n  evaluation_interval: 2s\nrule_files: [${JSON.stringify(rulesFile)}]\n`);
    const port = await freePort();
    const prom = await startReadyPeer('prometheus', prometheus, [`--config.file=${config}`, `--storage.tsdb.path=${path.join(t.dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], `http://127.0.0.1:${port}/-/ready`);
    try {
      for (let i = 0; i < GROUPS.length; i++) {
        const tsMs = await waitFor(`a sample of group ${GROUPS[i]}`, async () => {
          const r = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(`timestamp(offset_probe_${i})`)}`);
          const body = (await r.json()) as { data: { result: { value: [number, string] }[] } };
          const v = body.data.result[0]?.value[1];
          return v === undefined ? undefined : Math.round(Number(v) * 1000);
        });
        const wantOffsetMs = Number(groupOffsetNs(rulesFile, GROUPS[i], INTERVAL_MS) / 1_000_000n);
        expect({ group: GROUPS[i], offsetMs: tsMs % INTERVAL_MS }).toEqual({ group: GROUPS[i], offsetMs: wantOffsetMs });
        // The tick is at tsMs plus a fraction of a millisecond, so the latest tick at tsMs + 1 is it.
        expect(evalTimestampMs(rulesFile, GROUPS[i], INTERVAL_MS, tsMs + 1)).toBe(tsMs);
      }
    } finally {
      await prom.stop();
      t.remove();
    }
  });
});
