import { spawnSync } from 'node:child_process';
import { describe, expect } from 'vitest';
import { itWithPeer, type PeerBinary } from './peers.js';

// Every peer .ci/run installs must be present and runnable; later interop tiers build on them.
const PEERS: [PeerBinary, string[], RegExp][] = [
  ['prometheus', ['--version'], /prometheus, version 2\./],
  ['promtool', ['--version'], /promtool, version 2\./],
  ['victoria-metrics', ['-version'], /.*/], // Debian's build prints nothing; it must exit 0
  ['prometheus-alertmanager', ['--version'], /alertmanager, version/],
  ['chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--version'], /Chromium \d+/],
];

describe('real peers are installed', () => {
  for (const [binary, args, want] of PEERS) {
    itWithPeer(`${binary} runs`, binary, (path) => {
      const res = spawnSync(path, args, { encoding: 'utf8', timeout: 30_000 });
      expect(res.status, res.stderr).toBe(0);
      expect(`${res.stdout}${res.stderr}`).toMatch(want);
      return Promise.resolve();
    });
  }
});
