/**
 * Label matchers with regular expressions over 100k realistic label values: RE2 (re2js, what the
 * matchers use) against JavaScript's backtracking RegExp on the same patterns (safe ones only:
 * the point of RE2 is the unsafe ones), and the literal fast paths. One JSON line; matches per
 * second for each.
 */
import { Matcher, compileAnchoredRe2 } from '../../src/model/index.js';

const N = 100_000;
const values = Array.from({ length: N }, (_, i) => `ip-10-${(i >> 8) & 255}-${i & 255}-${i % 7}.us-east-1.compute.internal:${9100 + (i % 3)}`);

function perSec(fn: (v: string) => boolean): number {
  let hits = 0;
  for (let round = 0; round < 2; round++) for (const v of values) if (fn(v)) hits++; // warm-up
  const rounds = 5;
  const t0 = performance.now();
  for (let round = 0; round < rounds; round++) for (const v of values) if (fn(v)) hits++;
  const s = (performance.now() - t0) / 1000;
  if (hits < 0) throw new Error('unreachable');
  return Math.round((rounds * N) / s);
}

const general = 'ip-10-(1|2)[0-9]-.*:910[01]';
const re2 = compileAnchoredRe2(general);
const js = new RegExp(`^(?:${general})$`, 's');
const out = {
  bench: 'model/regex',
  values: N,
  re2MatchesPerSec: perSec((v) => re2.test(v)),
  jsRegExpMatchesPerSec: perSec((v) => js.test(v)),
  matcherGeneralPerSec: perSec(new Matcher('=~', 'instance', general).matches),
  matcherPrefixPerSec: perSec(new Matcher('=~', 'instance', 'ip-10-1.*').matches),
  matcherInfixPerSec: perSec(new Matcher('=~', 'instance', '.*compute.*').matches),
  matcherSetPerSec: perSec(new Matcher('=~', 'instance', `${values[1]}|${values[2]}|${values[3]}`).matches),
};
process.stdout.write(JSON.stringify(out) + '\n');
