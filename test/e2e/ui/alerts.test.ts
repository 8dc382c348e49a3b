/**
 * Browser tests of the Alerts and Rules pages and of the alert state on the Insights hex grid:
 * Debian's Chromium against the built `infersight demo`. The rules API answers are a real
 * Prometheus 2.42's (served to the page with `page.route`) by default, or the demo's own with
 * `INFERSIGHT_RULES_SOURCE=live` (rules-source.ts); the checks read the same answers as the page,
 * so they hold for both. Nothing sleeps: every wait is for a condition.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { ActiveAlert, AlertingRule } from '../../../src/query/index.js';
import { findPeer, itWithPeer, waitFor } from '../../peers/peers.js';
import { SCREENSHOT_DIR, openWatchedPage, saveScreenshot } from './browser.js';
import { simTargets, startUiDemo, type UiDemo } from './demo-fixture.js';
import { AlertsPage } from './pages/alerts-page.js';
import { ExplorePage } from './pages/explore-page.js';
import { InsightsPage } from './pages/insights-page.js';
import { RULES_SOURCE, goldenAlerts, useRulesSource, type RulesAnswers } from './rules-source.js';

let ui: UiDemo | undefined;
const chromiumPath = findPeer('chromium');

function running(): UiDemo {
  if (ui === undefined) throw new Error('the demo or the browser did not start');
  return ui;
}

/** Live mode needs rules to look at. */
const NO_LIVE_RULES = 'the demo serves no alerting rules: INFERSIGHT_RULES_SOURCE=live needs the rules engine and the default rule pack wired into the demo';

const alerting = (a: RulesAnswers): AlertingRule[] => a.rules.groups.flatMap((g) => g.rules.filter((r): r is AlertingRule => r.type === 'alerting'));

describe(`Alerts and Rules pages in Chromium (rules from ${RULES_SOURCE === 'live' ? 'the demo' : 'Prometheus 2.42 goldens'})`, () => {
  beforeAll(async () => {
    if (chromiumPath === null) return; // itWithPeer fails (CI) or skips each test
    ui = await startUiDemo('alerts-e2e', chromiumPath);
  }, 150_000);

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
    const page = new AlertsPage(w.page);
    await page.open(demo.base);
    expect(await page.listState()).toBe(rules.length === 0 ? 'empty' : 'ready');
    expect(await page.ruleStates()).toEqual(rules.map((r) => [r.name, r.state]));
    const count = (s: string): number => rules.filter((r) => r.state === s).length;
    expect(await page.stateCounts()).toEqual({ firing: count('firing'), pending: count('pending'), inactive: count('inactive') });
    // Active rules are open with one row per alert, firing first.
    for (const r of rules.filter((x) => x.state !== 'inactive')) {
      const want = [...r.alerts.map((a) => a.state)].sort((a, b) => (a === b ? 0 : a === 'firing' ? -1 : 1));
      expect(await page.alertRowStates(r.name), r.name).toEqual(want);
    }
    const firing = rules.find((r) => r.state === 'firing');
    if (firing !== undefined) {
      const summary = firing.alerts[0].annotations.summary;
      if (summary !== undefined) expect(await page.rule(firing.name).innerText()).toContain(summary);
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
    const href = await page.exploreLink(rule.name).getAttribute('href');
    expect(new URLSearchParams((href ?? '').split('?')[1]).get('expr')).toBe(rule.query);
    await page.exploreLink(rule.name).click();
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
    // What each instance cell must show: the worst state of the alerts naming its instance.
    const want: Record<string, string> = {};
    for (const x of answers.alerts) {
      const i = x.labels.instance;
      if (i !== undefined && want[i] !== 'firing') want[i] = x.state;
    }
    const insights = new InsightsPage(w.page);
    const marks = await waitFor('the hex grid with every alerted instance', async () => {
      await insights.open(demo.base);
      const got = Object.fromEntries(await insights.cells().evaluateAll((els) => els.map((e) => [e.getAttribute('data-instance') ?? '', e.getAttribute('data-alert') ?? ''] as const)));
      return Object.keys(want).every((i) => got[i] !== undefined) ? got : undefined;
    });
    for (const [i, s] of Object.entries(want)) expect(marks[i], i).toBe(s);
    if (RULES_SOURCE === 'golden') {
      // No other cell is marked.
      expect(Object.fromEntries(Object.entries(marks).filter(([, s]) => s !== ''))).toEqual(want);
      expect(await insights.cell(a.instance).getAttribute('aria-label')).toMatch(/1 alert firing$/);
      await insights.hover(a.instance);
      const tip = w.page.getByTestId('hex-tooltip-alerts');
      expect(await tip.getAttribute('data-alert')).toBe('firing');
      expect(await tip.innerText()).toContain(moved[0].labels.alertname);
      expect(await w.page.getByTestId('hex-legend-alert-firing').getAttribute('data-count')).toBe('1');
      await saveScreenshot(w.page, 'insights-alerts');
      await insights.panel('fleet-hexgrid').screenshot({ path: path.join(SCREENSHOT_DIR, 'insights-alerts-hexgrid.png') });
    }
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
