/**
 * Browser tests of the web UI: Debian's Chromium (playwright-core) against the built
 * `infersight demo` running the simulated fleet sped up (60 virtual seconds per second, scraped
 * every second). Nothing sleeps: every wait polls for a condition on the page or the API.
 * Screenshots of each page land in test-artifacts/screenshots/.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { findPeer, itWithPeer, waitFor } from '../../peers/peers.js';
import { openWatchedPage, saveScreenshot } from './browser.js';
import { promql, simTargets, startUiDemo, type UiDemo } from './demo-fixture.js';
import { ExplorePage } from './pages/explore-page.js';
import { InsightsPage } from './pages/insights-page.js';
import { TargetsPage } from './pages/targets-page.js';

// Runs in the page (the project's tsconfig has no DOM library).
declare const document: { querySelectorAll(selector: string): { length: number } };

let ui: UiDemo | undefined;
const chromiumPath = findPeer('chromium');

/** The instances the simulator runs now: targets with an AZ (engines, host exporters); a component's exporters name themselves. */
async function simInstances(base: string): Promise<string[]> {
  return [...new Set((await simTargets(base)).filter((l) => l.az !== undefined).map((l) => l.instance).filter((i): i is string => i !== undefined))].sort();
}

function running(): { base: string; browser: Browser } {
  if (ui === undefined) throw new Error('the demo or the browser did not start');
  return { base: ui.demo.base, browser: ui.browser };
}

describe('web UI in Chromium against infersight demo', () => {
  beforeAll(async () => {
    if (chromiumPath === null) return; // itWithPeer fails (CI) or skips each test
    ui = await startUiDemo('ui-e2e', chromiumPath);
    const base = ui.demo.base;
    // And every simulated instance scraped at least twice (its host exporter's `up`).
    await waitFor('every instance scraped', async () => {
      const want = await simInstances(base);
      const got = await promql(base, 'count by (instance) (count_over_time(up{az!=""}[1m]) >= 2)');
      return got.length >= want.length ? got : undefined;
    });
  }, 120_000);

  afterAll(async () => {
    await ui?.stop();
  });

  itWithPeer('Insights loads without console errors and the hex grid shows every simulated instance', 'chromium', async () => {
    const { base, browser } = running();
    const w = await openWatchedPage(browser);
    const insights = new InsightsPage(w.page);
    // The grid shows exactly the simulated instances (the fleet may scale while the page loads).
    const cells = await waitFor('a hex cell for every simulated instance', async () => {
      const before = await simInstances(base);
      await insights.open(base);
      const after = await simInstances(base);
      const got = await insights.cellInstances();
      return [before, after].some((want) => want.join() === got.join()) ? got : undefined;
    });
    expect(cells.length).toBeGreaterThanOrEqual(6);
    // Every panel of the dashboard is on the page and none of them failed; most have data once
    // the young demo has a few rate windows of history (reloading until then).
    const panelStates = (): Promise<string[]> =>
      w.page.locator('[data-testid^="panel-"]').evaluateAll((els: { getAttribute(name: string): string | null }[]) => els.map((e) => `${e.getAttribute('data-testid') ?? ''}=${e.getAttribute('data-state') ?? ''}`));
    const states = await waitFor('most panels with data', async () => {
      await insights.open(base);
      const s = await panelStates();
      const settled = s.some((x) => x.endsWith('=error')) || s.filter((x) => x.endsWith('=ready')).length > (s.length * 2) / 3;
      return settled ? s : undefined;
    });
    expect(states.filter((x) => x.endsWith('=error'))).toEqual([]);
    expect(states.length).toBeGreaterThan(15);
    await saveScreenshot(w.page, 'insights-dark');
    // At --speed 60 the page says what its rates are per (docs/design/virtual-time.md).
    const banner = w.page.locator('[data-testid="speed-banner"]');
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/60× speed: rates are per real second/);
    expect(w.errors).toEqual([]);
    await w.context.close();
  }, 90_000);

  itWithPeer('hovering a hex cell shows the instance details', 'chromium', async () => {
    const { base, browser } = running();
    const w = await openWatchedPage(browser);
    const insights = new InsightsPage(w.page);
    await insights.open(base);
    const [first] = await insights.cellInstances();
    const text = await insights.hover(first);
    expect(text).toContain(first);
    for (const want of [/ml\.g\d/, /vllm|sglang|djl/i, /TTFT/i, /P99/i, /KV/i, /TPS|tokens\/s/i, /concurren|running/i]) expect(text).toMatch(want);
    await saveScreenshot(w.page, 'insights-hover');
    expect(w.errors).toEqual([]);
    await w.context.close();
  }, 90_000);

  itWithPeer('clicking cells filters every panel to them, and the filter is in the URL', 'chromium', async () => {
    const { base, browser } = running();
    const w = await openWatchedPage(browser);
    const insights = new InsightsPage(w.page);
    await insights.open(base);
    const [a, b] = await insights.cellInstances();
    await insights.cell(a).click();
    await insights.settled();
    expect(new URL(w.page.url()).searchParams.getAll('instance').join(',')).toContain(a);
    // Every panel but the grid itself (it keeps showing the whole fleet, so more cells can be picked).
    const filtered = await insights.allQueries();
    delete filtered['fleet-hexgrid'];
    const withInstance = Object.entries(filtered).filter(([, qs]) => qs.some((q) => q.includes('instance=~')));
    expect(withInstance.length).toBeGreaterThan(5);
    for (const [id, qs] of withInstance) for (const q of qs.filter((x) => x.includes('instance=~'))) expect(q, id).toContain(a);
    // A second cell with shift: both instances, in the queries and the URL.
    await insights.cell(b).click({ modifiers: ['Shift'] });
    await insights.settled();
    const both = (await insights.panelQueries('instance-table')).join('\n');
    expect(both).toContain(a);
    expect(both).toContain(b);
    // The URL alone restores the selection.
    const shared = w.page.url();
    const w2 = await openWatchedPage(browser);
    const again = new InsightsPage(w2.page);
    await w2.page.goto(shared);
    await again.settled();
    expect((await again.panelQueries('instance-table')).join('\n')).toContain(b);
    await saveScreenshot(w.page, 'insights-filtered');
    expect([...w.errors, ...w2.errors]).toEqual([]);
    await w.context.close();
    await w2.context.close();
  }, 90_000);

  itWithPeer('the P50/P99 toggle changes the latency queries', 'chromium', async () => {
    const { base, browser } = running();
    const w = await openWatchedPage(browser);
    const insights = new InsightsPage(w.page);
    await insights.open(base);
    await insights.setQuantile('P50');
    const p50 = (await insights.panelQueries('token-latency')).join('\n');
    await insights.setQuantile('P99');
    const p99 = (await insights.panelQueries('token-latency')).join('\n');
    expect(p50).toMatch(/histogram_quantile\(0\.5\b/);
    expect(p99).toMatch(/histogram_quantile\(0\.99\b/);
    expect(p99).not.toMatch(/histogram_quantile\(0\.5\b/);
    expect(w.errors).toEqual([]);
    await w.context.close();
  }, 90_000);

  itWithPeer('the AZ traffic panel flags the AZ that the az-traffic-skew fault silenced', 'chromium', async () => {
    const { base, browser } = running();
    // The fault of the az-traffic-skew scenario, injected for long enough that rate windows see it.
    const res = await fetch(`${base}/api/v1/sim/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: 'az-traffic-skew', scope: { endpoint: 'chat-prod', az: 'us-east-1a' }, params: { toAz: 'us-east-1b' }, duration: '10h' }),
    });
    expect(res.status).toBeLessThan(300);
    const w = await openWatchedPage(browser);
    const insights = new InsightsPage(w.page);
    const flags = await waitFor(
      'us-east-1a flagged',
      async () => {
        await insights.open(base, '?range=5m');
        const f = await insights.azFlags();
        return f['us-east-1a'] !== undefined ? f : undefined;
      },
      90_000,
    );
    expect(['zero', 'skewed']).toContain(flags['us-east-1a']);
    await saveScreenshot(w.page, 'insights-az-skew');
    expect(w.errors).toEqual([]);
    await w.context.close();
  }, 120_000);

  itWithPeer('Explore completes metric names, runs a query and shows a graph and a table', 'chromium', async () => {
    const { base, browser } = running();
    const w = await openWatchedPage(browser);
    const explore = new ExplorePage(w.page);
    await explore.open(base);
    await explore.type('llm_kv_cache_us');
    expect((await explore.completions()).join('\n')).toContain('llm_kv_cache_usage_ratio');
    await explore.type('max by (engine) (llm_kv_cache_usage_ratio)');
    await explore.run();
    expect(await explore.result().getAttribute('data-state')).toBe('ready');
    expect(new URL(w.page.url()).searchParams.toString()).toContain('llm_kv_cache_usage_ratio');
    expect(await explore.result().innerText()).toMatch(/vllm|sglang|djl/);
    await saveScreenshot(w.page, 'explore');
    // A broken query shows the API's error message, and the page keeps working.
    await explore.type('sum(rate(');
    await explore.run();
    expect(await explore.result().getAttribute('data-state')).toBe('error');
    expect(await explore.result().innerText()).toMatch(/parse error|unexpected/i);
    // Chromium logs the 400 of the broken query as "Failed to load resource"; nothing else may appear.
    expect(w.errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    await w.context.close();
  }, 90_000);

  itWithPeer('Targets lists the scrape targets with their health', 'chromium', async () => {
    const { base, browser } = running();
    const w = await openWatchedPage(browser, { colorScheme: 'light' });
    const targets = new TargetsPage(w.page);
    await targets.open(base);
    await w.page.waitForFunction(() => document.querySelectorAll('[data-testid="targets-table"] [data-health="up"]').length > 0, undefined, { polling: 100 });
    const text = await targets.table().innerText();
    expect(text).toContain('/metrics');
    await saveScreenshot(w.page, 'targets-light');
    // The Insights page in the light theme, for the artifacts.
    const insights = new InsightsPage(w.page);
    await insights.open(base);
    await saveScreenshot(w.page, 'insights-light');
    expect(w.errors).toEqual([]);
    await w.context.close();
  }, 90_000);
});
