import { describe, expect, it } from 'vitest';
import { Labels } from '../../model/index.js';
import type { Alert } from '../types.js';
import { labelsFingerprint, rfc3339Millis, webhookBody } from './payload.js';

describe('rfc3339Millis', () => {
  it.each([
    [0, '1970-01-01T00:00:00.000Z'],
    [Date.UTC(2026, 11, 1, 23, 18, 41, 7), '2026-12-01T23:18:41.007Z'],
    [Date.UTC(2026, 11, 1, 23, 18, 41, 999), '2026-12-01T23:18:41.999Z'],
  ])('%i → %s', (ms, want) => expect(rfc3339Millis(ms)).toBe(want));
});

describe('labelsFingerprint (Alertmanager fingerprint; the interop test checks it against the real one)', () => {
  it.each([
    [{}, 'cbf29ce484222325'],
    // FNV-1a 64 of "alertname\xffA\xff".
    [{ alertname: 'A' }, fnv1a64(['alertname', 'A'])],
    [{ b: '2', a: '1' }, fnv1a64(['a', '1', 'b', '2'])],
    [{ name: 'ü' }, fnv1a64(['name', 'ü'])],
  ])('%j', (labels, want) => expect(labelsFingerprint(Labels.from(labels))).toBe(want));
});

/** A second, plain implementation of FNV-1a 64 over name/value pairs, each followed by 0xff. */
function fnv1a64(parts: string[]): string {
  let h = 0xcbf29ce484222325n;
  for (const p of parts) {
    for (const b of [...new TextEncoder().encode(p), 0xff]) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  }
  return h.toString(16).padStart(16, '0');
}

describe('webhookBody', () => {
  const t = Date.UTC(2026, 0, 1);
  const a = (name: string, endsAt: number, labels: Record<string, string> = {}, annotations: Record<string, string> = {}): Alert => ({
    labels: Labels.from({ alertname: name, ...labels }),
    annotations: Labels.from(annotations),
    startsAt: t - 60_000,
    endsAt,
    generatorURL: 'http://g/',
  });
  it.each<[string, Alert[], string, Record<string, string>, Record<string, string>, string[]]>([
    ['one firing', [a('A', t + 1, { az: 'a' }, { s: 'x' })], 'firing', { alertname: 'A', az: 'a' }, { s: 'x' }, ['firing']],
    ['endsAt at now is resolved', [a('A', t)], 'resolved', { alertname: 'A' }, {}, ['resolved']],
    ['firing while any is', [a('A', t - 1, { az: 'a' }), a('B', t + 1, { az: 'a' })], 'firing', { az: 'a' }, {}, ['resolved', 'firing']],
    ['common labels keep only what all share', [a('A', t + 1, { az: 'a', x: '1' }, { s: 'x' }), a('A', t + 1, { az: 'b', x: '1' }, { s: 'x' })], 'firing', { alertname: 'A', x: '1' }, { s: 'x' }, ['firing', 'firing']],
  ])('%s', (_name, alerts, status, commonLabels, commonAnnotations, statuses) => {
    const body = JSON.parse(webhookBody(alerts, 'ops', 'http://infersight/', t)) as { status: string; commonLabels: unknown; commonAnnotations: unknown; alerts: { status: string }[] };
    expect(body).toMatchObject({ version: '4', groupKey: '', truncatedAlerts: 0, receiver: 'ops', groupLabels: {}, externalURL: 'http://infersight/', status, commonLabels, commonAnnotations });
    expect(body.alerts.map((x) => x.status)).toEqual(statuses);
  });
});
