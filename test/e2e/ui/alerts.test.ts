/**
 * Browser tests of the Alerts and Rules pages and of the alert state on the Insights hex grid:
 * Debian's Chromium against the built `infersight demo`. The rules API answers are the demo's
 * own (its rules engine evaluating the default rule pack, with a fault injected so that an alert
 * fires) by default, or a real Prometheus 2.42's with `INFERSIGHT_RULES_SOURCE=golden`
 * (rules-source.ts); the checks read the same answers as the page, so they hold for both.
 * Nothing sleeps: every wait is for a condition.
 */
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { ActiveAlert, AlertingRule } from '../../../src/query/index.js';
import { findPeer, itWithPeer, waitFor } from '../../peers/peers.js';
import { SCREENSHOT_DIR, openWatchedPage, saveScreenshot } from './browser.js';
import { simTargets, startUiDemo, type UiDemo } from './demo-fixture.js';
import { AlertsPage } from './pages/alerts-page.js';
import { ExplorePage } from './pages/explore-page.js';
import { InsightsPage } from './pages/insights-page.js';
import { RULES_SOURCE, goldenAlerts, isAlert, raiseLiveAlert, useRulesSource, type LiveAlert, type RulesAnswers } from './rules-source.js';

let ui: UiDemo | undefined;
/** Live mode: the alert the injected fault makes fire. */
let live: LiveAlert | undefined;
const chromiumPath = findPeer('chromium');

function running(): UiDemo {
  if (ui === undefined) throw new Error('the demo or the browser did not start');
  return ui;
}

/** Live mode needs rules to look at. */
const NO_LIVE_RULES = 'the demo serves no alerting rules: live mode needs the rules engine and the default rule pack wired into the demo';

const alerting = (a: RulesAnswers): AlertingRule[] => a.rules.groups.flatMap((g) => g.rules.filter((r): r is AlertingRule => r.type === 'alerting'));

/** The labels a hex cell has of each identity label: those of the engines on its instance (sim targets). */
type CellLabels = Readonly<Record<string, readonly string[]>>;

/**
 * What each instance's cell must show, worked out apart from the page: an alert concerns a cell
 * when it has an identity label and each of them names one of the cell's values (so an SLO alert
 * on a component marks every instance that runs it; web/src/panels/HexGridPanel/cell-alerts.ts).
 */
function expectedMarks(cells: ReadonlyMap<string, CellLabels>, alerts: readonly ActiveAlert[]): Map<string, ActiveAlert[]> {
  const out = new Map<string, ActiveAlert[]>();
  for (const a of alerts) {
    const ids = ['instance', 'replica', 'component', 'endpoint'].filter((l) => (a.labels[l] ?? '') !== '');
    if (ids.length === 0) continue;
    for (const [instance, labels] of cells) {
      // The cell must have the alert's first identity label; the others it may lack.
      const has = (l: string) => labels[l]?.includes(a.labels[l]) ?? false;
      if (has(ids[0]) && ids.every((l) => labels[l] === undefined || has(l))) out.set(instance, [...(out.get(instance) ?? []), a]);
    }
  }
  return out;
}

/** "2 alerts firing, 1 pending", as a cell's accessible name ends. */
function alertsText(alerts: readonly ActiveAlert[]): string {
  const firing = alerts.filter((a) => a.state === 'firing').length;
  const pending = alerts.length - firing;
  const n = (k: number) => `${k} ${k === 1 ? 'alert' : 'alerts'}`;
  return firing === 0 ? `${n(pending)} pending` : pending === 0 ? `${n(firing)} firing` : `${n(firing)} firing, ${pending} pending`;
}

describe(`Alerts and Rules pages in Chromium (rules from ${RULES_SOURCE === 'live' ? 'the demo' : 'Prometheus 2.42 goldens'})`, () => {
  beforeAll(async () => {
    if (chromiumPath === null) return; // itWithPeer fails (CI) or skips each test
    ui = await startUiDemo('alerts-e2e', chromiumPath);
    live = await raiseLiveAlert(ui.demo.base);
  }, 210_000);

  afterAll(async () => {
    await ui?.stop();
  });

  itWithPeer('shows every alerting rule in its state, with counts, a state filter and each alert', 'chromium', async () => {
    const { demo, browser } = running();
    const w = await openWatchedPage(browser);
    const answers = await useRulesSource(w.page, demo.base);
    const rules = alerting(answers);
    if (RULES_SOURCE === 'golden') expect(new Set(rules.map((r) => r.state))).toEqual(new Set(['firing', 'pending', 'inactive']));
    else expect(rules.length, NO_LIVE_RULES).toBeGreaterThan(0);
    // Live: the injected fault's alert fires in the demo's answer, and so on the page (below).
    const raised = live === undefined ? -1 : rules.findIndex((r) => r.alerts.some((a) => isAlert(a, live!) && a.state === 'firing'));
    if (live !== undefined) expect(raised, `${live.alertname} is not firing`).toBeGreaterThanOrEqual(0);
    const page = new AlertsPage(w.page);
    await page.open(demo.base);
    expect(await page.listState()).toBe(rules.length === 0 ? 'empty' : 'ready');
    expect(await page.ruleStates()).toEqual(rules.map((r) => [r.name, r.state]));
    const count = (s: string): number => rules.filter((r) => r.state === s).length;
    expect(await page.stateCounts()).toEqual({ firing: count('firing'), pending: count('pending'), inactive: count('inactive') });
    // Active rules are open with one row per alert, firing first (by position: names repeat across groups).
    for (const [i, r] of rules.entries()) {
      if (r.state === 'inactive') continue;
      const want = [...r.alerts.map((a) => a.state)].sort((a, b) => (a === b ? 0 : a === 'firing' ? -1 : 1));
      expect(await page.alertRowStates(i), r.name).toEqual(want);
    }
    const firing = raised >= 0 ? raised : rules.findIndex((r) => r.state === 'firing');
    if (firing >= 0) {
      expect(await page.rule(firing).getAttribute('data-state')).toBe('firing');
      const summary = rules[firing].alerts.find((a) => a.state === 'firing')?.annotations.summary;
      if (summary !== undefined) expect(await page.rule(firing).innerText()).toContain(summary);
    }
    await saveScreenshot(w.page, `alerts-${RULES_SOURCE}`);
    // The state filter narrows the list and lives in the URL.
    await page.toggleState('firing');
    expect((await page.ruleStates()).map(([, s]) => s)).toEqual(rules.filter((r) => r.state === 'firing').map(() => 'firing'));
    expect(new URL(w.page.url()).searchParams.getAll('state')).toEqual(['firing']);
    await page.toggleState('pending');
    expect(new Set((await page.ruleStates()).map(([, s]) => s))).toEqual(new Set(rules.filter((r) => r.state === 'firing' || r.state === 'pending').map((r) => r.state)));
    expect(w.errors).toEqual([]);
    await w.context.close();
  });

  itWithPeer("opens a rule's expression in Explore", 'chromium', async () => {
    const { demo, browser } = running();
    const w = await openWatchedPage(browser);
    const rules = alerting(await useRulesSource(w.page, demo.base));
    if (rules.length === 0) throw new Error(NO_LIVE_RULES);
    const page = new AlertsPage(w.page);
    await page.open(demo.base);
    const rule = rules[0];
    const href = await page.exploreLink(0).getAttribute('href');
    expect(new URLSearchParams((href ?? '').split('?')[1]).get('expr')).toBe(rule.query);
    await page.exploreLink(0).click();
    const explore = new ExplorePage(w.page);
    await explore.editor().waitFor({ state: 'visible' });
    expect(new URL(w.page.url()).pathname).toBe('/explore');
    expect(await explore.editor().locator('.cm-content').innerText()).toBe(rule.query);
    await explore.run();
    expect(['ready', 'empty']).toContain(await explore.result().getAttribute('data-state'));
    expect(w.errors).toEqual([]);
    await w.context.close();
  });

  itWithPeer('lists every rule on the Rules page with its health and last error', 'chromium', async () => {
    const { demo, browser } = running();
    const w = await openWatchedPage(browser);
    const answers = await useRulesSource(w.page, demo.base);
    const page = new AlertsPage(w.page);
    await page.open(demo.base, '', 'rules');
    const all = answers.rules.groups.flatMap((g) => g.rules);
    expect(await page.ruleHealth()).toEqual(Object.fromEntries(all.map((r) => [r.name, r.health])));
    for (const r of all.filter((x) => x.lastError !== undefined && x.lastError !== '')) expect(await w.page.getByTestId('rules-list').innerText()).toContain(r.lastError);
    await saveScreenshot(w.page, `rules-${RULES_SOURCE}`);
    expect(w.errors).toEqual([]);
    await w.context.close();
  });

  itWithPeer('marks the hex cells of the instances that have alerts, worst state first, and lists them in the hover card', 'chromium', async () => {
    const { demo, browser } = running();
    const w = await openWatchedPage(browser);
    // Golden mode: the golden's firing and pending alerts, moved onto two of the demo's replicas.
    const engines = (await simTargets(demo.base)).filter((l) => l.replica !== undefined && l.instance !== undefined && l.component !== undefined);
    const [a, b] = [engines[0], engines.find((l) => l.instance !== engines[0].instance)];
    if (a === undefined || b === undefined) throw new Error('the demo runs fewer than two instances');
    const identity = (l: Record<string, string>) => ({ endpoint: l.endpoint, component: l.component, instance: l.instance, replica: l.replica });
    const golden = goldenAlerts();
    const moved: ActiveAlert[] = [
      { ...golden.find((x) => x.state === 'firing')!, labels: { ...golden.find((x) => x.state === 'firing')!.labels, ...identity(a) } },
      { ...golden.find((x) => x.state === 'pending')!, labels: { ...golden.find((x) => x.state === 'pending')!.labels, ...identity(b) } },
    ];
    const answers = await useRulesSource(w.page, demo.base, moved);
    // What each instance's cell must show: the worst state of the alerts that concern it, over
    // the engines the demo runs now (autoscaling moves replicas, so this is read with each look).
    const expected = async () => {
      const cells = new Map<string, Record<string, string[]>>();
      for (const l of await simTargets(demo.base)) {
        if (l.replica === undefined || l.instance === undefined) continue;
        const c = cells.get(l.instance) ?? {};
        for (const k of ['instance', 'replica', 'component', 'endpoint']) if (l[k] !== undefined && !(c[k] ?? []).includes(l[k])) c[k] = [...(c[k] ?? []), l[k]];
        cells.set(l.instance, c);
      }
      const concern = expectedMarks(cells, answers.alerts);
      return { concern, want: Object.fromEntries([...concern].map(([i, list]) => [i, list.some((x) => x.state === 'firing') ? 'firing' : 'pending'])) };
    };
    const insights = new InsightsPage(w.page);
    let last: { got: Record<string, string>; want: Record<string, string>; concern: Map<string, ActiveAlert[]> } | undefined;
    await waitFor('the hex grid with every alerted cell in its state and no other cell marked', async () => {
      await insights.open(demo.base);
      const marks = await insights.cells().evaluateAll((els) => els.map((e) => [e.getAttribute('data-instance') ?? '', e.getAttribute('data-alert') ?? ''] as const));
      last = { ...(await expected()), got: Object.fromEntries(marks.filter(([, m]) => m !== '')) };
      return isDeepStrictEqual(last.got, last.want) ? true : undefined;
    }, 30_000).catch(() => undefined);
    // Every alerted cell in its worst state, and no other cell marked.
    if (last === undefined) throw new Error('the hex grid never loaded');
    expect(last.got).toEqual(last.want);
    const { want, concern } = last;
    if (live !== undefined) expect(Object.values(want), 'the injected fault marks no cell').toContain('firing');
    // A firing cell's name counts its alerts; its hover card lists them, firing first; the legend counts the cells.
    const hot = RULES_SOURCE === 'golden' ? a.instance : Object.keys(want).find((i) => want[i] === 'firing')!;
    const hotAlerts = concern.get(hot) ?? [];
    expect(await insights.cell(hot).getAttribute('aria-label')).toMatch(new RegExp(`${alertsText(hotAlerts)}$`));
    await insights.hover(hot);
    const tip = w.page.getByTestId('hex-tooltip-alerts');
    expect(await tip.getAttribute('data-alert')).toBe('firing');
    expect(await tip.innerText()).toContain(hotAlerts.find((x) => x.state === 'firing')!.labels.alertname);
    expect(await w.page.getByTestId('hex-legend-alert-firing').getAttribute('data-count')).toBe(String(Object.values(want).filter((x) => x === 'firing').length));
    await saveScreenshot(w.page, `insights-alerts-${RULES_SOURCE}`);
    await insights.panel('fleet-hexgrid').screenshot({ path: path.join(SCREENSHOT_DIR, `insights-alerts-hexgrid-${RULES_SOURCE}.png`) });
    expect(w.errors).toEqual([]);
    await w.context.close();
  });

  itWithPeer("loads Insights and Alerts without console errors on the demo's own rules API", 'chromium', async () => {
    const { demo, browser } = running();
    const w = await openWatchedPage(browser);
    const insights = new InsightsPage(w.page);
    await insights.open(demo.base);
    expect(await insights.cells().count()).toBeGreaterThan(0);
    const page = new AlertsPage(w.page);
    await page.open(demo.base);
    expect(['ready', 'empty']).toContain(await page.listState());
    expect(w.errors).toEqual([]);
    await w.context.close();
  });
});
