import type { Labels, UnixMs } from '../../model/index.js';
import type { Alert } from '../types.js';

/**
 * A time as Alertmanager's API v2 writes it (go-openapi's `strfmt.DateTime`): RFC 3339 with
 * milliseconds, here always in UTC (`2026-12-01T23:18:41.123Z`).
 */
export function rfc3339Millis(tMs: UnixMs): string {
  return new Date(tMs).toISOString();
}

function labelSet(l: Labels): Record<string, string> {
  return l.toRecord();
}

/** One alert of Alertmanager's `PostableAlerts`; empty annotations and generator URL are left out, as Prometheus' encoder does. */
function postableAlert(a: Alert): Record<string, unknown> {
  return {
    labels: labelSet(a.labels),
    ...(a.annotations.size === 0 ? {} : { annotations: labelSet(a.annotations) }),
    startsAt: rfc3339Millis(a.startsAt),
    endsAt: rfc3339Millis(a.endsAt),
    ...(a.generatorURL === '' ? {} : { generatorURL: a.generatorURL }),
  };
}

/** The body of `POST /api/v2/alerts`: a JSON array of alerts. */
export function alertmanagerV2Body(alerts: readonly Alert[]): string {
  return JSON.stringify(alerts.map(postableAlert));
}

const FNV64_OFFSET = 0xcbf29ce484222325n;
const FNV64_PRIME = 0x100000001b3n;
const MASK64 = 0xffffffffffffffffn;
const encoder = new TextEncoder();

/**
 * Alertmanager's alert fingerprint (Prometheus' `model.LabelSet.Fingerprint`): FNV-1a 64 over the
 * names and values in name order, each followed by the byte 0xff, as 16 hex digits.
 */
export function labelsFingerprint(l: Labels): string {
  let h = FNV64_OFFSET;
  const add = (bytes: Uint8Array) => {
    for (const b of bytes) h = ((h ^ BigInt(b)) * FNV64_PRIME) & MASK64;
  };
  const sep = new Uint8Array([0xff]);
  const names: string[] = [];
  l.forEach((n) => names.push(n));
  // Go sorts the names by byte; Labels keeps them in code-unit order, which agrees inside the BMP.
  for (const n of names) {
    add(encoder.encode(n));
    add(sep);
    add(encoder.encode(l.get(n)));
    add(sep);
  }
  return h.toString(16).padStart(16, '0');
}

/** What all alerts of a batch share (Alertmanager's `commonLabels` / `commonAnnotations`). */
function common(sets: readonly Labels[]): Record<string, string> {
  if (sets.length === 0) return {};
  const out = new Map(Object.entries(sets[0].toRecord()));
  for (const s of sets.slice(1)) {
    for (const [name, value] of out) if (s.get(name) !== value) out.delete(name);
  }
  return Object.fromEntries(out);
}

/**
 * The body of Infersight's generic webhook: Alertmanager's webhook notification (`version` 4), so
 * receivers written for Alertmanager's `webhook_configs` read it unchanged. There is no grouping
 * (one notification per batch; `groupKey` is empty and `groupLabels` is `{}`); an alert is
 * `resolved` when its `endsAt` is at or before `nowMs`, and the notification is `firing` while
 * any of its alerts is.
 */
export function webhookBody(alerts: readonly Alert[], receiver: string, externalURL: string, nowMs: UnixMs): string {
  const items = alerts.map((a) => ({
    status: a.endsAt <= nowMs ? 'resolved' : 'firing',
    labels: labelSet(a.labels),
    annotations: labelSet(a.annotations),
    startsAt: rfc3339Millis(a.startsAt),
    endsAt: rfc3339Millis(a.endsAt),
    generatorURL: a.generatorURL,
    fingerprint: labelsFingerprint(a.labels),
  }));
  return JSON.stringify({
    version: '4',
    groupKey: '',
    truncatedAlerts: 0,
    status: items.some((i) => i.status === 'firing') ? 'firing' : 'resolved',
    receiver,
    groupLabels: {},
    commonLabels: common(alerts.map((a) => a.labels)),
    commonAnnotations: common(alerts.map((a) => a.annotations)),
    externalURL,
    alerts: items,
  });
}
