/**
 * The Insights page with a 1,000-instance simulated fleet, in Debian's Chromium (playwright-core):
 *
 * 1. load: from navigation to interactive — every panel settled (no query in flight, none in
 *    its loading state) — over BENCH_LOADS fresh loads (target < 1,500 ms);
 * 2. filter: from a click on a hex cell until every panel has re-rendered with the filtered data
 *    (target < 300 ms), and from Escape (clearing the selection) until every panel shows the
 *    whole fleet again; BENCH_CLICKS alternating. Reported twice: the UI's own measure (click
 *    handler to the last panel render, `window.__infersight`) and the wall time seen by the test,
 *    which includes the queries' round trips.
 *
 * The fleet is `infersight demo --scenario fleet-<N>` (the built CLI: run `npm run build` first)
 * in real time, scraped every 15 s; the measurement starts once most instances have rates.
 *
 * Env: BENCH_INSTANCES (default 1000), BENCH_LOADS (default 5), BENCH_CLICKS (default 10),
 * CHROMIUM (default: chromium on PATH).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findPeer, waitFor } from '../../test/peers/peers.js';
import { startDemoCli } from '../../test/e2e/cli.js';
import { launchChromium, openWatchedPage } from '../../test/e2e/ui/browser.js';
import { InsightsPage } from '../../test/e2e/ui/pages/insights-page.js';

const instances = Number(process.env.BENCH_INSTANCES ?? 1000);
const loads = Number(process.env.BENCH_LOADS ?? 5);
const clicks = Number(process.env.BENCH_CLICKS ?? 10);
const chromiumPath = process.env.CHROMIUM ?? findPeer('chromium');
if (chromiumPath === null) throw new Error('chromium is not installed (apt-get install chromium)');

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const round = (x: number): number => Math.round(x * 10) / 10;

const dir = mkdtempSync(path.join(os.tmpdir(), 'infersight-bench-web-'));
// Real time and the default 15 s scrape interval: the load a production server of this fleet
// carries (sped up, the simulator and the scrapes take most of a core away from the queries).
const demo = await startDemoCli(['--data', dir, '--scenario', `fleet-${instances}`, '--speed', '1', '--scrape-interval', '15s']);
try {
  const promql = async (q: string): Promise<number> => {
    const res = await fetch(`${demo.base}/api/v1/query`, { method: 'POST', body: new URLSearchParams({ query: q }) });
    const body = (await res.json()) as { data?: { result: { value: [number, string] }[] } };
    return Number(body.data?.result[0]?.value[1] ?? 0);
  };
  // History enough for the panels: most instances report TTFT rates.
  await waitFor(
    'TTFT rates from most instances',
    async () => ((await promql('count(count by (instance) (rate(llm_time_to_first_token_seconds_count[1m]) > 0))')) >= instances * 0.9 ? true : undefined),
    600_000,
  );
  const browser = await launchChromium(chromiumPath);
  const loadMs: number[] = [];
  // Selecting one instance (every panel re-queried for it) and clearing the selection (every
  // panel back to the whole fleet) cost very differently; each is reported on its own.
  const uiFilterMs: number[] = [];
  const wallFilterMs: number[] = [];
  const uiClearMs: number[] = [];
  const wallClearMs: number[] = [];
  let cells = 0;
  let panels = 0;
  try {
    for (let i = 0; i < loads; i++) {
      const w = await openWatchedPage(browser);
      const page = new InsightsPage(w.page);
      const t0 = performance.now();
      await page.open(demo.base, '?range=15m', 300_000);
      loadMs.push(performance.now() - t0);
      if (i === loads - 1) {
        cells = await page.cells().count();
        panels = (await page.panelIds()).length;
        const names = await page.cellInstances();
        for (let c = 0; c < clicks; c++) {
          // Alternate: select a cell, then clear the selection with Escape.
          const before = (await page.probe()).renders;
          const t1 = performance.now();
          if (c % 2 === 0) await page.cell(names[(c * 97) % names.length]).click();
          else await w.page.keyboard.press('Escape');
          await w.page.waitForFunction((n) => (globalThis as unknown as { __infersight: { renders: number } }).__infersight.renders > n, before, { polling: 'raf' });
          await page.settled(300_000);
          (c % 2 === 0 ? wallFilterMs : wallClearMs).push(performance.now() - t1);
          (c % 2 === 0 ? uiFilterMs : uiClearMs).push((await page.probe()).lastRenderMs);
        }
      }
      if (w.errors.length > 0) throw new Error(`page errors: ${w.errors.join('; ')}`);
      await w.context.close();
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(
    `${JSON.stringify({
      bench: 'web/insights',
      instances,
      hexCells: cells,
      panels,
      loads,
      loadP50Ms: round(quantile(loadMs, 0.5)),
      loadMaxMs: round(Math.max(...loadMs)),
      clicks,
      filterRenderP50Ms: round(quantile(uiFilterMs, 0.5)),
      filterRenderMaxMs: round(Math.max(...uiFilterMs)),
      filterWallP50Ms: round(quantile(wallFilterMs, 0.5)),
      filterWallMaxMs: round(Math.max(...wallFilterMs)),
      clearRenderP50Ms: round(quantile(uiClearMs, 0.5)),
      clearWallP50Ms: round(quantile(wallClearMs, 0.5)),
    })}\n`,
  );
} finally {
  await demo.stop();
  rmSync(dir, { recursive: true, force: true });
}
