// The CLI's answers to a busy listen address and an unknown scenario: one line that says what to
// change, never a stack trace or a page of usage (issue 12, point 7).
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../src/tsdb/testing/temp-dir.js';
import { runCli } from './cli.js';

const t = tempDir('e2e-cli-errors');
let held: net.Server;
let busy = '';

beforeAll(async () => {
  held = net.createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', () => resolve()));
  busy = `127.0.0.1:${(held.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => held.close(() => resolve()));
  t.remove();
});

/** The lines of stderr that are not the logger's (`ts=... level=...`). */
const ownLines = (stderr: string): string[] => stderr.split('\n').filter((l) => l !== '' && !l.startsWith('ts='));

describe('a busy listen address', () => {
  const gatewayFile = (): string => {
    const file = `${t.dir}/gateway.yml`;
    writeFileSync(file, `listen: ${busy}\nmodels: [{ name: m, replicas: [{ url: "http://127.0.0.1:1" }] }]\n`);
    return file;
  };
  it.each<[string, () => string[], string]>([
    ['demo --listen', () => ['demo', '--listen', busy, '--data', `${t.dir}/demo`, '--gateway.listen', 'off'], '--listen'],
    ['demo --gateway.listen', () => ['demo', '--listen', '127.0.0.1:0', '--data', `${t.dir}/demo-gw`, '--gateway.listen', busy], '--gateway.listen'],
    ['serve --listen', () => ['serve', '--listen', busy, '--data', `${t.dir}/serve`, '--otlp.listen', 'off'], '--listen'],
    ['serve --otlp.listen', () => ['serve', '--listen', '127.0.0.1:0', '--data', `${t.dir}/serve-otlp`, '--otlp.listen', busy], '--otlp.listen'],
    ['sim --listen', () => ['sim', '--listen', busy, '--file-sd', `${t.dir}/sim/fsd.json`, '--ground-truth', `${t.dir}/sim/gt.json`], '--listen'],
    ['gateway, listen from the file', () => ['gateway', '--config', gatewayFile()], "'listen' in"],
  ])('%s: one line naming the address and the flag, exit status 1', async (_what, args, flag) => {
    const { code, stderr } = await runCli(args());
    const lines = ownLines(stderr);
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toContain(`infersight: cannot listen on ${busy} (${flag}`);
    expect(lines[0]).toContain('address already in use');
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(code).toBe(1);
  });
});

describe('an unknown --scenario', () => {
  it.each([['demo'], ['sim']])('%s: names the valid scenarios instead of the usage, exit status 2', async (command) => {
    const { code, stderr } = await runCli([command, '--scenario', 'kv-pressure']);
    const lines = ownLines(stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^infersight: unknown --scenario "kv-pressure"; valid scenarios: demo, steady, kv-cache-pressure, .*fleet-<N>/);
    expect(stderr).not.toContain('Commands:');
    expect(code).toBe(2);
  });
});
