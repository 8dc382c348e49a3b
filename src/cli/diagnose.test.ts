import { describe, expect, it } from 'vitest';
import { useCleanups } from '../model/testing/cleanups.js';
import { DX_INCIDENT_MS, startDiagnosisServer } from '../server/testing/diagnosis-fixture.js';
import { UsageError } from './args.js';
import { diagnoseCommand } from './diagnose.js';

const cleanups = useCleanups();

const server = (): Promise<string> => startDiagnosisServer(cleanups);

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await diagnoseCommand(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}

const INCIDENT = String((DX_INCIDENT_MS + 5 * 60_000) / 1000);

describe('infersight diagnose', () => {
  it.each([
    [
      'the ranked causes as a table',
      ['--time', INCIDENT, '--symptom', 'ttft'],
      [
        'Diagnosis at 2025-01-06T11:35:00Z (symptom ttft)',
        '',
        'RANK  CAUSE              CONFIDENCE  SCOPE                            ONSET  SUMMARY',
        '1     kv-cache-pressure  0.90        endpoint=chat component=llama-a  -      KV cache of llama-a is full: add replicas or lower max_num_seqs (symptom ttft)',
        '      evidence: max by (endpoint, component) (llm_kv_cache_usage_ratio)  baseline 0.45  incident 0.97',
        '',
        'Ruled out:',
        '  none  the KV cache filled up against the hour before',
        '',
      ].join('\n'),
    ],
    [
      'none on a healthy deployment, time as RFC 3339',
      ['--time', new Date(DX_INCIDENT_MS + 5 * 60_000).toISOString(), '--match', '{component="qwen-b"}'],
      [
        'Diagnosis at 2025-01-06T11:35:00Z',
        '',
        'RANK  CAUSE  CONFIDENCE  SCOPE  ONSET  SUMMARY',
        '1     none   1.00        fleet  -      nothing is wrong',
        '      evidence: max by (endpoint, component) (llm_kv_cache_usage_ratio{component="qwen-b"})  baseline 0.4  incident 0.4',
        '',
        'Ruled out:',
        '  kv-cache-pressure  no KV cache is above 90 %',
        '',
      ].join('\n'),
    ],
  ])('prints %s', async (_name, args, want) => {
    const base = await server();
    expect(await run(['--server', base, ...args])).toEqual({ code: 0, out: want, err: '' });
  });

  it('prints the API data with --json', async () => {
    const base = await server();
    const r = await run(['--server', base, '--time', INCIDENT, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ time: Number(INCIDENT), causes: [{ cause: 'kv-cache-pressure', confidence: 0.9 }] });
  });

  it.each([
    ['a selector the server refuses', ['--match', '{component='], 'infersight: diagnose: invalid parameter "match[]": 1:12: parse error: unexpected end of input inside braces\n'],
    ['a symptom the server does not know', ['--symptom', 'slow'], 'infersight: diagnose: invalid parameter "symptom": unknown symptom "slow"; want one of ttft, itl, e2e, tps, errors\n'],
  ])('exits 1 with the server message for %s', async (_name, args, err) => {
    const base = await server();
    expect(await run(['--server', base, ...args])).toEqual({ code: 1, out: '', err });
  });

  it('exits 1 when the server cannot be reached', async () => {
    const r = await run(['--server', 'http://127.0.0.1:1']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^infersight: diagnose: \/api\/v1\/diagnosis: cannot reach http:\/\/127\.0\.0\.1:1/);
  });

  it.each([
    [[], 'diagnose needs --server URL'],
    [['--server', 'http://x', '--time', 'noon'], 'invalid --time: cannot parse "noon" to a valid timestamp (Unix seconds or RFC 3339)'],
  ])('refuses %j as a usage error', async (args, message) => {
    const e = await run(args).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as Error).message).toBe(message);
  });
});
