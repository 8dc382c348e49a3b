import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadUpstreamSuite, parseIndexTsv, upstreamPresent } from './upstream.js';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('loadUpstreamSuite', () => {
  let dir = '';
  afterEach(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });
  const make = (files: Record<string, string>, sums: string): string => {
    dir = mkdtempSync(join(tmpdir(), 'promqltest-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, 'SHA256SUMS'), sums);
    return dir;
  };

  it('reads files that match SHA256SUMS, and index.tsv', () => {
    const d = make(
      { 'a.test': 'load 5m\n', 'index.tsv': 'file\tline\tkind\ttime\texpect_fail\tordered\tannotations\tnative_histogram\texpr\na.test\t3\tinstant\tat 0\t0\t0\t-\t1\tsum(x)\n' },
      `${sha('load 5m\n')}  a.test\n`,
    );
    expect(upstreamPresent(d)).toBe(true);
    const suite = loadUpstreamSuite(d);
    expect(suite.files).toEqual([{ name: 'a.test', text: 'load 5m\n' }]);
    expect(suite.index.get('a.test:3')).toEqual({ file: 'a.test', line: 3, kind: 'instant', nativeHistogram: true, expr: 'sum(x)' });
  });

  it.each([
    ['a changed file', { 'a.test': 'changed' }, `${sha('load 5m\n')}  a.test\n`, 'a.test: sha256'],
    ['a missing file', {}, `${sha('x')}  a.test\n`, 'a.test is missing'],
    ['an unlisted file', { 'a.test': 'x', 'b.test': 'y' }, `${sha('x')}  a.test\n`, 'b.test is not listed'],
    ['an empty SHA256SUMS', { 'a.test': 'x' }, '', 'lists no files'],
  ])('fails loudly on %s', (_name, files, sums, message) => {
    expect(() => loadUpstreamSuite(make(files, sums))).toThrow(message);
  });

  it('reports an absent folder', () => {
    expect(upstreamPresent(join(tmpdir(), 'no-such-promqltest-dir'))).toBe(false);
  });

  it('rejects an index.tsv without the needed columns', () => {
    expect(() => parseIndexTsv('file\tline\n')).toThrow('index.tsv has no kind column');
  });
});
