import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STATE, decodeUrlState, encodeUrlState, pageFromPath, pathForPage, type UrlState } from './url-state.js';

const roundTrip = (s: UrlState): UrlState => decodeUrlState(encodeUrlState(s));

describe('URL state', () => {
  it('leaves defaults out', () => {
    expect(encodeUrlState(DEFAULT_STATE)).toBe('');
    expect(decodeUrlState('')).toEqual(DEFAULT_STATE);
    expect(decodeUrlState('?')).toEqual(DEFAULT_STATE);
  });

  it('round-trips a full state', () => {
    const s: UrlState = {
      range: { kind: 'absolute', fromMs: 1_796_000_000_000, toMs: 1_796_003_600_500 },
      refreshMs: 15_000,
      vars: { az: ['us-east-1a', 'us-east-1c'], engine: ['vllm'], kv_band: ['60-70'] },
      selection: ['chat-prod-i1', 'chat-prod-i3'],
      hexView: 'replica',
      quantile: '0.5',
      tabs: { 'token-latency': 'invoke' },
      thresholds: { kv: [0.6, 0.9], ttft_p99: [1.5, 3] },
      expr: 'sum by (le) (rate(x_bucket{a="b&c"}[5m]))',
      exploreTab: 'table',
      filter: 'dcgm down',
      alertStates: ['firing', 'pending'],
      insight: 'ttft-5f2c01ab-1736163000',
      theme: 'light',
    };
    expect(roundTrip(s)).toEqual(s);
    const text = encodeUrlState(s);
    expect(text).toContain('var-az=us-east-1a&var-az=us-east-1c');
    expect(text).toContain('replica=chat-prod-i1&replica=chat-prod-i3');
    expect(text).toContain('from=2026-');
  });

  it('writes the selection under the view name', () => {
    const s = { ...DEFAULT_STATE, selection: ['i-1', 'i-2'] };
    expect(encodeUrlState(s)).toBe('instance=i-1&instance=i-2');
    expect(decodeUrlState('instance=i-1&instance=i-2')).toEqual(s);
    expect(decodeUrlState('hex=endpoint&endpoint=chat&instance=i-1')).toMatchObject({ hexView: 'endpoint', selection: ['chat'] });
    // A view named like another key carries no selection rather than a wrong one.
    expect(decodeUrlState('hex=range&range=5m').selection).toEqual([]);
  });

  it('writes a relative range and refresh as durations', () => {
    const s = { ...DEFAULT_STATE, range: { kind: 'relative', durationMs: 6 * 3_600_000 }, refreshMs: 60_000 } as const;
    expect(encodeUrlState(s)).toBe('range=6h&refresh=1m');
    expect(roundTrip(s)).toEqual(s);
  });

  it('falls back to defaults for bad values', () => {
    const s = decodeUrlState('range=forever&refresh=soon&quantile=2&etab=pie&theme=blue&th-kv=a,b&from=x&to=y&hex=&state=burning');
    expect(s).toEqual(DEFAULT_STATE);
  });

  it('accepts Unix seconds and ms for from/to', () => {
    const s = decodeUrlState('from=1796000000&to=1796003600000');
    expect(s.range).toEqual({ kind: 'absolute', fromMs: 1_796_000_000_000, toMs: 1_796_003_600_000 });
  });

  it('round-trips arbitrary states', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
    const text = fc.string({ maxLength: 20 });
    const state = fc.record({
      range: fc.oneof(
        fc.record({ kind: fc.constant('relative' as const), durationMs: fc.integer({ min: 1, max: 10 ** 10 }) }),
        fc.integer({ min: 0, max: 4 * 10 ** 12 }).chain((fromMs) =>
          fc.integer({ min: 1, max: 10 ** 10 }).map((d) => ({ kind: 'absolute' as const, fromMs, toMs: fromMs + d })),
        ),
      ),
      refreshMs: fc.constantFrom(0, 5000, 15_000, 30_000, 60_000),
      vars: fc.dictionary(name, fc.array(text, { minLength: 1, maxLength: 3 }), { maxKeys: 4 }),
      selection: fc.array(text.filter((t) => t !== ''), { maxLength: 4 }),
      hexView: fc.constantFrom('instance', 'replica', 'endpoint'),
      quantile: fc.constantFrom('0.5', '0.9', '0.99', '0.999'),
      tabs: fc.dictionary(name, name, { maxKeys: 3 }),
      thresholds: fc.dictionary(name, fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x)), { minLength: 1, maxLength: 3 }), {
        maxKeys: 3,
      }),
      expr: text,
      exploreTab: fc.constantFrom('graph' as const, 'table' as const),
      filter: text,
      alertStates: fc.subarray(['firing', 'pending', 'inactive'] as const),
      insight: text,
    });
    fc.assert(
      fc.property(state, (s) => {
        expect(roundTrip(s)).toEqual(s);
      }),
      { numRuns: 300 },
    );
  });
});

describe('paths', () => {
  it.each([
    ['/', 'insights'],
    ['/explore', 'explore'],
    ['/targets/', 'targets'],
    ['/infersight/explore', 'explore'],
    ['/alerts', 'alerts'],
    ['/rules', 'rules'],
    ['/diagnosis', 'diagnosis'],
    ['/quality', 'quality'],
    ['/whatever', 'insights'],
  ] as const)('%s is %s', (path, page) => {
    expect(pageFromPath(path)).toBe(page);
  });

  it('keeps a mount prefix', () => {
    expect(pathForPage('explore', '/')).toBe('/explore');
    expect(pathForPage('insights', '/explore')).toBe('/');
    expect(pathForPage('targets', '/infersight/explore')).toBe('/infersight/targets');
    expect(pathForPage('insights', '/infersight/')).toBe('/infersight/');
    expect(pathForPage('explore', '/infersight/alerts')).toBe('/infersight/explore');
    expect(pathForPage('rules', '/alerts')).toBe('/rules');
  });
});
