import type { OtlpAnyValue as AnyValue, OtlpKeyValue as KeyValue } from '../../wire/index.js';
import { IngestError, IngestErrorCode } from '../errors.js';
import { labelName } from './names.js';

/** The resource attributes that become `job` and `instance`. */
export const SERVICE_NAME = 'service.name';
export const SERVICE_NAMESPACE = 'service.namespace';
export const SERVICE_INSTANCE_ID = 'service.instance.id';

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function toJson(v: AnyValue | undefined): unknown {
  const x = v?.value;
  switch (x?.case) {
    case undefined:
      return null;
    case 'stringValue':
    case 'boolValue':
    case 'doubleValue':
      return x.value;
    case 'intValue':
      return Number(x.value);
    case 'bytesValue':
      return base64(x.value);
    case 'arrayValue':
      return x.value.values.map(toJson);
    case 'kvlistValue':
      return Object.fromEntries(x.value.values.map((kv) => [kv.key, toJson(kv.value)]));
  }
}

/**
 * An attribute value as a label value, as OTel's `pcommon.Value.AsString` writes it (which is
 * what Prometheus' translator uses): strings as they are, booleans `true`/`false`, integers in
 * decimal, doubles as JavaScript (ES6) numbers print, bytes in base64, arrays and maps as JSON.
 */
export function anyValueString(v: AnyValue | undefined): string {
  const x = v?.value;
  switch (x?.case) {
    case undefined:
      return '';
    case 'stringValue':
      return x.value;
    case 'boolValue':
      return x.value ? 'true' : 'false';
    case 'intValue':
      return x.value.toString();
    case 'doubleValue':
      return Number.isFinite(x.value) ? String(x.value) : `json: unsupported value: ${x.value > 0 ? '+Inf' : x.value < 0 ? '-Inf' : 'NaN'}`;
    case 'bytesValue':
      return base64(x.value);
    default:
      return JSON.stringify(toJson(v));
  }
}

/** Looks up the first attribute named `key`. */
export function attribute(attrs: readonly KeyValue[], key: string): AnyValue | undefined {
  for (const kv of attrs) if (kv.key === key) return kv.value;
  return undefined;
}

/**
 * Sanitized attribute keys: the same few keys repeat on every point. Bounded in entries (emptied
 * when full) and, since it outlives requests (refused ones too), in key length: a longer key is
 * sanitized every time, so a sender cannot park megabytes of keys here.
 */
const LABEL_NAMES = new Map<string, string | null>();
const MAX_CACHED_KEY_CHARS = 256;

function sanitized(key: string): string {
  let name = LABEL_NAMES.get(key);
  if (name === undefined) {
    name = labelName(key);
    if (key.length <= MAX_CACHED_KEY_CHARS) {
      if (LABEL_NAMES.size >= 10_000) LABEL_NAMES.clear();
      LABEL_NAMES.set(key, name);
    }
  }
  if (name === null) throw new IngestError(IngestErrorCode.INVALID_SERIES, `attribute name ${JSON.stringify(key)} cannot be turned into a label name`);
  return name;
}

/**
 * The labels of one data point, without `__name__`, as Prometheus' `createAttributes` builds
 * them: the point's attributes sorted by key (stable) and sanitized, values of keys that collide
 * after sanitizing joined with `;`; then the promoted resource attributes that are not set yet;
 * then `job` (`service.namespace/service.name`, or `service.name`) and `instance`
 * (`service.instance.id`), which win over attributes of those names. Returned as a Map, in
 * insertion order, for the caller to add `__name__` and `le`/`quantile`.
 */
export function pointLabels(resourceAttrs: readonly KeyValue[], pointAttrs: readonly KeyValue[], promoted: readonly string[], ignore: readonly string[] = []): Map<string, string> {
  const out = new Map<string, string>();
  const sorted = pointAttrs.length < 2 ? pointAttrs : [...pointAttrs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const kv of sorted) {
    if (ignore.includes(kv.key)) continue;
    const name = sanitized(kv.key);
    const value = anyValueString(kv.value);
    const prev = out.get(name);
    out.set(name, prev === undefined ? value : `${prev};${value}`);
  }
  for (const key of promoted) {
    const v = attribute(resourceAttrs, key);
    if (v === undefined) continue;
    const name = sanitized(key);
    if (!out.has(name)) out.set(name, anyValueString(v));
  }
  const service = attribute(resourceAttrs, SERVICE_NAME);
  if (service !== undefined) {
    const ns = attribute(resourceAttrs, SERVICE_NAMESPACE);
    out.set('job', ns === undefined ? anyValueString(service) : `${anyValueString(ns)}/${anyValueString(service)}`);
  }
  const instance = attribute(resourceAttrs, SERVICE_INSTANCE_ID);
  if (instance !== undefined) out.set('instance', anyValueString(instance));
  return out;
}

/**
 * The labels of the resource's `target_info` series (without `__name__`), or null when it would
 * carry nothing beyond `job` and `instance`, or lacks both (Prometheus' `addResourceTargetInfo`).
 */
export function targetInfoLabels(resourceAttrs: readonly KeyValue[]): Map<string, string> | null {
  const identifying = [SERVICE_NAMESPACE, SERVICE_NAME, SERVICE_INSTANCE_ID];
  const others = resourceAttrs.filter((kv) => !identifying.includes(kv.key));
  if (others.length === 0) return null;
  const labels = pointLabels(resourceAttrs, resourceAttrs, [], identifying);
  if (!labels.has('job') && !labels.has('instance')) return null;
  return labels;
}
