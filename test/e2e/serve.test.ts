import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../src/model/testing/cleanups.js';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { runCli, startServe } from './cli.js';

const cleanups = useCleanups();

describe('infersight serve (whole process)', () => {
  it('serves health, readiness and metrics, and shuts down cleanly on SIGTERM', async () => {
    const t = tempDir('e2e-serve');
    cleanups.push(t.remove);
    const cli = await startServe(['--data', t.dir, '--retention', '2d']);
    expect((await fetch(`${cli.base}/-/healthy`)).status).toBe(200);
    expect((await fetch(`${cli.base}/-/ready`)).status).toBe(200);
    const metrics = await (await fetch(`${cli.base}/metrics`)).text();
    expect(metrics).toContain('infersight_tsdb_head_series 0');
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.log.some((l) => l.includes('msg="shutting down" signal=SIGTERM'))).toBe(true);
    // The data directory holds a WAL that a second start replays.
    const again = await startServe(['--data', t.dir]);
    expect((await fetch(`${again.base}/-/ready`)).status).toBe(200);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  });

  it.each([
    [['serve', '--retention', 'forever'], /invalid duration for --retention/],
    // Units out of order: Prometheus' model.ParseDuration refuses `1s1h`, and so does the CLI.
    [['serve', '--retention', '1s1h'], /invalid duration for --retention: "1s1h"/],
    [['serve', '--wal-fsync', 'sometimes'], /invalid --wal-fsync/],
    [['serve', '--retention-size', '12 parsecs'], /invalid size/],
    [['serve', '--listen', 'nowhere'], /invalid listen address/],
    [['serve', '--bogus'], /Unknown option '--bogus'/],
    [['frobnicate'], /unknown command "frobnicate"/],
  ])('rejects bad usage %j with exit status 2', async (args, message) => {
    const { code, stderr } = await runCli(args);
    expect(stderr).toMatch(message);
    expect(code).toBe(2);
  });

  it('exits with status 1 and says why when the data directory cannot be opened', async () => {
    const t = tempDir('e2e-bad-data');
    cleanups.push(t.remove);
    const file = `${t.dir}/not-a-directory`;
    (await import('node:fs')).writeFileSync(file, 'x');
    const { code, stderr } = await runCli(['serve', '--listen', '127.0.0.1:0', '--data', file]);
    expect(stderr).toMatch(/opening the store failed/);
    expect(code).toBe(1);
  });

  it('prints help', async () => {
    const { code, stdout } = await runCli(['serve', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--wal-fsync MODE');
  });
});
