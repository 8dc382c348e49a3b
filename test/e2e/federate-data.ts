/**
 * The `/federate` golden data set and cases. The data is pushed by remote write (so that both
 * servers get timestamps next to "now") into Debian's Prometheus 2.42 when the golden is
 * captured and into Infersight when it is compared. Federation answers
 * relative to the wall clock (Prometheus has no other), so every timestamp is an offset from a
 * base time `baseMs` stored in the golden, and the set is built to give the same answer for any
 * "now" in `[baseMs, baseMs + 20 s)`.
 */
import { STALE_NAN } from '../../src/model/index.js';
import { encodeRemoteWriteV1, snappyEncode, type RemoteWriteV1Series } from '../../src/wire/index.js';

/** Longest time after `baseMs` at which the golden's answers stay the same. */
export const FEDERATE_VALID_FOR_MS = 20_000;

/**
 * Samples as `[offset, value]`; a stale marker is spelled 'stale' because V8 canonicalizes NaN
 * payloads in arrays of numbers, and a `STALE_NAN` kept in one arrives as a plain NaN.
 */
type Points = readonly (readonly [offsetMs: number, value: number | 'stale'])[];

function series(labels: Record<string, string>, points: Points, baseMs: number): RemoteWriteV1Series {
  const sorted = Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { labels: sorted, samples: points.map(([o, v]) => ({ tMs: baseMs + o, value: v === 'stale' ? STALE_NAN : v })) };
}

/** The data set, as remote write series with timestamps `baseMs + offset`. */
export function federateDataset(baseMs: number): RemoteWriteV1Series[] {
  const s = (name: string, labels: Record<string, string>, points: Points) => series({ __name__: name, ...labels }, points, baseMs);
  const a = { job: 'fed-a' };
  const gauge = (kind: string, v: number) => s('fed_gauge', { ...a, kind }, [[-20_000, v]]);
  return [
    // Counters of several targets; the latest sample wins, at millisecond precision.
    s('fed_requests_total', { ...a, instance: 'i1', code: '200' }, [[-120_000, 10], [-60_000, 15], [-15_000 + 123, 22]]),
    s('fed_requests_total', { ...a, instance: 'i2', code: '500' }, [[-30_000, 3]]),
    s('fed_requests_total', { job: 'fed-b', instance: 'i1', code: '200' }, [[-5_000, 1]]),
    // Value formatting (Go's writeFloat: 0, 1 and -1 spelled out, then %g).
    gauge('nan', NaN),
    gauge('inf', Infinity),
    gauge('ninf', -Infinity),
    gauge('tiny', 1.5e-7),
    gauge('big', 1.2345678901234567e300),
    gauge('frac', 0.1),
    gauge('minus1', -1),
    gauge('int', 1234567),
    gauge('negzero', -0),
    gauge('million', 1e6),
    // No labels but the name: federation adds instance="" so a scraper keeps none of its own.
    s('fed_lonely', {}, [[-10_000, 42]]),
    // Label escaping and ordering (upper-case names sort before lower-case ones).
    s('fed_escape', { ...a, path: 'C:\\dir\\file', quote: 'say "hi"', nl: 'line1\nline2', uni: 'ünï ☃', Alpha: 'first' }, [[-10_000, 7]]),
    // The lookback window: older than 5 m is out, 4 m 50 s is in; samples after now are out.
    s('fed_old', a, [[-400_000, 1]]),
    s('fed_edge', a, [[-290_000, 2]]),
    s('fed_future', a, [[-30_000, 4], [120_000, 9]]),
    // A series ending in a stale marker is left out; one revived after it is in.
    s('fed_stale', a, [[-20_000, 5], [-10_000, 'stale']]),
    s('fed_revived', a, [[-30_000, 1], [-20_000, 'stale'], [-10_000, 2]]),
    // Metric-name order is byte order: 'F' < ':' < '_' < 'a'.
    s('Fed_first', a, [[-10_000, 1]]),
    s('fed:recorded:rate5m', a, [[-10_000, 0.5]]),
    s('fed_Upper', a, [[-10_000, 3]]),
  ];
}

/** The data set as one snappy-compressed remote write 1.0 body. */
export function federateDatasetBody(baseMs: number): Uint8Array {
  return snappyEncode(encodeRemoteWriteV1(federateDataset(baseMs)));
}

/** Pushes the data set to `base`'s `/api/v1/write`; throws unless the answer is 2xx. */
export function pushFederateDataset(base: string, baseMs: number): Promise<void> {
  return pushRemoteWriteBody(base, federateDatasetBody(baseMs));
}

/** Pushes `series` to `base`'s `/api/v1/write` as one remote write 1.0 request; throws unless the answer is 2xx. */
export function pushRemoteWriteSeries(base: string, series: readonly RemoteWriteV1Series[]): Promise<void> {
  return pushRemoteWriteBody(base, snappyEncode(encodeRemoteWriteV1(series)));
}

async function pushRemoteWriteBody(base: string, body: Uint8Array): Promise<void> {
  const res = await fetch(`${base}/api/v1/write`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'snappy', 'X-Prometheus-Remote-Write-Version': '0.1.0' },
    body,
  });
  if (!res.ok) throw new Error(`remote write to ${base} answered ${res.status}: ${await res.text()}`);
}

/** One `/federate` request of the golden suite. */
export interface FederateCase {
  readonly name: string;
  readonly method: 'GET';
  /** The raw query string (after `?`), sent as is so that malformed escapes reach the server. */
  readonly query: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Compare only status and headers, not the body; `note` says why. */
  readonly statusOnly?: boolean;
  readonly note?: string;
  /** A known bug elsewhere makes this case differ: the test expects it to fail until it is fixed. */
  readonly knownBug?: string;
}

const enc = encodeURIComponent;
const match = (...selectors: string[]): string => selectors.map((s) => `match[]=${enc(s)}`).join('&');

/** Prometheus 2.42 scraper's default `Accept` header. */
const SCRAPE_ACCEPT = 'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';

/** Every golden case. */
export const FEDERATE_CASES: readonly FederateCase[] = [
  { name: 'all', method: 'GET', query: match('{__name__=~".+",__name__!="fed_stale"}') },
  { name: 'overlapping-selectors', method: 'GET', query: match('fed_requests_total', '{job="fed-b"}', '{__name__="fed_requests_total",instance="i1"}') },
  { name: 'scraper-accept', method: 'GET', query: match('{job="fed-a",__name__=~"fed_g.*"}'), headers: { Accept: SCRAPE_ACCEPT } },
  { name: 'gzip', method: 'GET', query: match('fed_requests_total'), headers: { 'Accept-Encoding': 'gzip' } },
  { name: 'deflate', method: 'GET', query: match('fed_requests_total'), headers: { 'Accept-Encoding': 'deflate, gzip' } },
  { name: 'gzip-q-zero', method: 'GET', query: match('fed_lonely'), headers: { 'Accept-Encoding': 'gzip;q=0' } },
  { name: 'text-accept', method: 'GET', query: match('fed_lonely'), headers: { Accept: 'text/plain' } },
  { name: 'empty-result', method: 'GET', query: match('fed_nonexistent') },
  // A remote-written stale marker must stay a stale marker (it once became a plain NaN).
  { name: 'stale-only', method: 'GET', query: match('fed_stale') },
  { name: 'empty-matcher-label', method: 'GET', query: match('{job=""}') },
  { name: 'empty-braces', method: 'GET', query: match('{}') },
  { name: 'regex-dot-star', method: 'GET', query: match('{__name__=~"fed_(old|edge|future)"}') },
  { name: 'bad-selector', method: 'GET', query: match('fed_gauge{') },
  { name: 'bad-selector-expression', method: 'GET', query: match('rate(fed_requests_total[5m])') },
  { name: 'bad-selector-second', method: 'GET', query: match('fed_lonely', 'foo bar') },
  {
    name: 'bad-regex',
    method: 'GET',
    query: match('{__name__=~"("}'),
    statusOnly: true,
    note: 'Prometheus quotes the anchored regexp (`^(?:()$`), our parser the one written (`(`) (src/promql)',
  },
  {
    name: 'bad-selector-empty',
    method: 'GET',
    query: 'match[]=',
    statusOnly: true,
    note: "Prometheus says '1:1: parse error: unexpected end of input'; our parser says 'unknown position: ...' (src/promql, also /api/v1/series)",
  },
  { name: 'bad-escape', method: 'GET', query: 'match[]=%zz' },
  { name: 'bad-gzip-error', method: 'GET', query: match('fed_gauge{'), headers: { 'Accept-Encoding': 'gzip' } },
];
