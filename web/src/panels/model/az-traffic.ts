/**
 * Traffic distribution across availability zones: each AZ's share of requests and a flag for the
 * two signals an operator looks for. `zero`: the AZ is known (it has instances, or had traffic
 * earlier) but serves no requests now, or one deployment (endpoint and component) has engines up
 * there and gets no requests (`darkByAz`: judged per deployment, so another endpoint's traffic in
 * the same AZ does not hide it). `skewed`: its share is more than `skew` (default 50 %) away from
 * an even share, relative to it — with 3 AZs, below 16.7 % or above 50 %. Zero takes
 * precedence; with fewer than two AZs nothing is skewed.
 */
import type { InstantSample } from '../../../../src/query/index.js';
import { parseSampleValue } from '../../../../src/query/index.js';

/** One AZ's row. */
export interface AzTrafficRow {
  readonly az: string;
  /** Requests per second (0 for a known AZ without a series). */
  readonly rate: number;
  /** Share of all requests, 0–1 (NaN when there is no traffic at all). */
  readonly share: number;
  readonly flag?: 'zero' | 'skewed';
  /** The deployments (`endpoint/component`) up in this AZ with no traffic, sorted; absent when none. */
  readonly dark?: readonly string[];
}

/**
 * AZ → the dark deployments in it, from the series of the dashboard's `dark` query (one per AZ,
 * endpoint and component whose engines are up and serve nothing; a NaN or 0 value is not dark).
 */
export function darkByAz(samples: readonly InstantSample[]): Map<string, string[]> {
  const m = new Map<string, Set<string>>();
  for (const s of samples) {
    const v = parseSampleValue(s.value[1]);
    const az = s.metric.az;
    if (az === undefined || az === '' || !(v > 0)) continue;
    const name = [s.metric.endpoint, s.metric.component].filter((x) => x !== undefined && x !== '').join('/') || az;
    let set = m.get(az);
    if (set === undefined) m.set(az, (set = new Set()));
    set.add(name);
  }
  return new Map([...m].map(([az, names]) => [az, [...names].sort()]));
}

/** Builds the rows for the AZs with a rate and the known AZs without one, sorted by name. */
export function azTraffic(rates: ReadonlyMap<string, number>, knownAzs: readonly string[], skew = 0.5): AzTrafficRow[] {
  const azs = [...new Set([...knownAzs, ...rates.keys()])].filter((a) => a !== '').sort();
  const total = azs.reduce((sum, az) => sum + Math.max(0, rates.get(az) ?? 0), 0);
  const even = azs.length > 0 ? 1 / azs.length : Number.NaN;
  return azs.map((az) => {
    const rate = Math.max(0, rates.get(az) ?? 0);
    const share = total > 0 ? rate / total : Number.NaN;
    let flag: AzTrafficRow['flag'];
    if (rate === 0 && total > 0) flag = 'zero';
    else if (azs.length >= 2 && total > 0 && Math.abs(share - even) / even > skew) flag = 'skewed';
    return flag === undefined ? { az, rate, share } : { az, rate, share, flag };
  });
}
