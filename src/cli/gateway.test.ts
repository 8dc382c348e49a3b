import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { UsageError } from './args.js';
import { gatewayCommand } from './gateway.js';

const dir = mkdtempSync(join(tmpdir(), 'gateway-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('infersight gateway', () => {
  it.each([
    [[], '--config FILE is required'],
    [['--config', 'x.yml', '--remote-write', 'http://a/api/v1/write', '--data', 'd'], 'not both'],
    [['--config', 'x.yml', '--remote-write', 'a:1'], 'invalid --remote-write'],
    [['--config', 'x.yml', '--listen', 'nope'], 'invalid listen address'],
    [['--config', 'x.yml', '--log-level', 'loud'], 'invalid --log-level'],
  ])('%j is a usage error', async (argv, message) => {
    const p = gatewayCommand(argv);
    await expect(p).rejects.toBeInstanceOf(UsageError);
    await expect(p).rejects.toThrow(message);
  });

  it('an invalid configuration file exits 1, naming the field', async () => {
    const file = join(dir, 'bad.yml');
    writeFileSync(file, 'models: [{ name: m, replicas: [{ url: "ftp://x" }] }]\n');
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await gatewayCommand(['--config', file])).toBe(1);
      expect(err.mock.calls.map((c) => String(c[0])).join('')).toContain('models[0].replicas[0].url: want an http:// URL');
      expect(await gatewayCommand(['--config', join(dir, 'missing.yml')])).toBe(1);
    } finally {
      err.mockRestore();
    }
  });

  it('--help prints the usage', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await gatewayCommand(['--help'])).toBe(0);
      expect(String(out.mock.calls[0][0])).toContain('Usage: infersight gateway --config FILE');
    } finally {
      out.mockRestore();
    }
  });
});
