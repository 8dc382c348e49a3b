/**
 * Where the browser tests of the Alerts page get `/api/v1/rules` and `/api/v1/alerts` from: the
 * demo's own rules engine evaluating the default rule pack (`live`, the default), or the answers
 * of a real Prometheus 2.42 (`INFERSIGHT_RULES_SOURCE=golden`:
 * web/src/api/testdata/prometheus-rules-api.json). Either way the answers are read once per page
 * and served to it with Playwright's `page.route`, and the tests check the page against the same
 * answers (`rulesAnswer`, `alertsAnswer`): the live engine moves on between two reads (an alert
 * goes from pending to firing, a new one starts), so a page that read the API itself could show
 * a later state than the one the test holds. The page's own reads of the live API are checked by
 * the test that routes nothing.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { ActiveAlert, ApiSuccess, AlertsData, RulesData } from '../../../src/query/index.js';
import { waitFor } from '../../peers/peers.js';
import { simTargets } from './demo-fixture.js';

/** `live` (the default) or `golden`. */
export const RULES_SOURCE: 'live' | 'golden' = process.env.INFERSIGHT_RULES_SOURCE === 'golden' ? 'golden' : 'live';

interface Golden {
  readonly rules: ApiSuccess<RulesData>;
  readonly alerts: ApiSuccess<AlertsData>;
}

const GOLDEN = JSON.parse(readFileSync(new URL('../../../web/src/api/testdata/prometheus-rules-api.json', import.meta.url), 'utf8')) as Golden;

/** What the page is served: the golden's answers, or the live server's. */
export interface RulesAnswers {
  readonly rules: RulesData;
  readonly alerts: readonly ActiveAlert[];
}

/** The alert a live run waits for: the fault injected by `raiseLiveAlert` makes the pack fire it without a `for` wait. */
export interface LiveAlert {
  readonly alertname: string;
  readonly labels: Readonly<Record<string, string>>;
}

/**
 * Live mode: injects a fault through the simulator's API (docs/sim.md) so that the default pack
 * has a firing alert while the tests look, and waits until the demo's `/api/v1/alerts` has it.
 * `engine-errors` on one component (6 % 5xx) burns the availability objective's budget (99.9 %)
 * over 14 times as fast as allowed, and `SLOBurnRateFast` has no `for`: it fires on the first
 * evaluation that sees the errors (test/rules/pack-faults.test.ts checks the same pairing in
 * virtual time). The fault lasts 6 virtual hours, minutes of wall-clock time at the demo's speed.
 * Golden mode does nothing and answers `undefined`.
 */
export async function raiseLiveAlert(base: string): Promise<LiveAlert | undefined> {
  if (RULES_SOURCE !== 'live') return undefined;
  const engine = (await simTargets(base)).find((l) => l.replica !== undefined && l.component !== undefined);
  if (engine === undefined) throw new Error('the demo runs no engine');
  const scope = { component: engine.component };
  const res = await fetch(`${base}/api/v1/sim/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ kind: 'engine-errors', scope, duration: '6h', startIn: '0s' }) });
  if (res.status !== 200) throw new Error(`POST /api/v1/sim/faults answered ${res.status}: ${await res.text()}`);
  const want: LiveAlert = { alertname: 'SLOBurnRateFast', labels: { ...scope, slo: 'availability' } };
  await waitFor(`${want.alertname} ${JSON.stringify(want.labels)} firing on the demo`, async () => {
    const alerts = (((await (await fetch(`${base}/api/v1/alerts`)).json()) as ApiSuccess<AlertsData>).data.alerts);
    return alerts.some((a) => isAlert(a, want) && a.state === 'firing') ? true : undefined;
  });
  return want;
}

/** Whether `a` is the alert `want` names (its name and at least its labels). */
export function isAlert(a: ActiveAlert, want: LiveAlert): boolean {
  return a.labels.alertname === want.alertname && Object.entries(want.labels).every(([k, v]) => a.labels[k] === v);
}

/**
 * Prepares `page` and returns the answers it will see, both served by `page.route`. In golden
 * mode the rules answer is the golden's and the alerts answer is `alerts` (default: the
 * golden's); in live mode both are read from `base` now (`alerts` is not used).
 */
export async function useRulesSource(page: Page, base: string, alerts?: readonly ActiveAlert[]): Promise<RulesAnswers> {
  let rules: ApiSuccess<RulesData>;
  let served: ApiSuccess<AlertsData>;
  if (RULES_SOURCE === 'live') {
    const get = async <T>(p: string): Promise<ApiSuccess<T>> => (await (await fetch(`${base}${p}`)).json()) as ApiSuccess<T>;
    [rules, served] = await Promise.all([get<RulesData>('/api/v1/rules'), get<AlertsData>('/api/v1/alerts')]);
  } else {
    rules = GOLDEN.rules;
    served = { status: 'success', data: { alerts: [...(alerts ?? GOLDEN.alerts.data.alerts)] } };
  }
  await page.route(/\/api\/v1\/rules(\?|$)/, (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(rules) }));
  await page.route(/\/api\/v1\/alerts(\?|$)/, (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(served) }));
  return { rules: rules.data, alerts: served.data.alerts };
}

/** The golden's alerts (golden mode rewrites their identity onto the demo's instances). */
export function goldenAlerts(): readonly ActiveAlert[] {
  return GOLDEN.alerts.data.alerts;
}
