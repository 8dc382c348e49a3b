/**
 * Browser test of the open-insight banner on Insights and of the Diagnosis page: Debian's
 * Chromium against the built UI, served by a server whose insight runner replayed the fixture
 * fleet of src/server/testing/diagnosis-fixture.ts (one deployment's KV cache fills and its TTFT
 * regresses), stopped while the insight is still open. The server runs in process with the
 * fixture's diagnoser (real queries through the real engine), so that the page shows a known
 * ranking; the checks read the same answers as the page.
 * Nothing sleeps: every wait is for a condition.
 */
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { HttpDiagnosisClient, type InsightWire } from '../../../src/query/index.js';
import { MemoryLogger } from '../../../src/model/index.js';
import { FakeTimers } from '../../../src/model/testing/fake-timers.js';
import { startServer, type RunningServer } from '../../../src/server/index.js';
import { DX_INCIDENT_MS, DX_START_MS, kvOnlyDiagnoser, writeDiagnosisFleet } from '../../../src/server/testing/diagnosis-fixture.js';
import { tempDir } from '../../../src/tsdb/testing/temp-dir.js';
import { findPeer, itWithPeer } from '../../peers/peers.js';
import { launchChromium, openWatchedPage, saveScreenshot } from './browser.js';
import { DiagnosisPage } from './pages/diagnosis-page.js';
import type { Browser } from 'playwright-core';

const NOW_MS = DX_INCIDENT_MS + 10 * 60_000;
let server: RunningServer | undefined;
let browser: Browser | undefined;
let base = '';
let open: InsightWire | undefined;
const dir = tempDir('ui-diagnosis');

beforeAll(async () => {
  await writeDiagnosisFleet(dir.dir);
  server = await startServer({
    listen: '127.0.0.1:0',
    storage: { dir: dir.dir, fsync: { mode: 'never' } },
    logger: new MemoryLogger(),
    clock: () => NOW_MS,
    // The runner replays the fixture up to NOW_MS; its live ticks wait on timers nobody moves.
    backfill: { description: 'fixture', run: async () => undefined, rulesFromMs: DX_START_MS },
    diagnose: { createDiagnoser: kvOnlyDiagnoser, timers: new FakeTimers(NOW_MS) },
  });
  await server.ready;
  base = `http://127.0.0.1:${server.http.address.port}`;
  open = (await new HttpDiagnosisClient({ url: base }).insights()).data.insights.find((i) => i.resolved === null);
  const chromium = findPeer('chromium');
  if (chromium !== null) browser = await launchChromium(chromium);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  dir.remove();
});

describe('Diagnosis in the browser', () => {
  itWithPeer('the banner links the open insight to its diagnosis: ranked causes, why not, charts and the scope on the grid', 'chromium', async () => {
    if (browser === undefined || open === undefined) throw new Error(`no browser or no open insight (insights: ${JSON.stringify(open)})`);
    const { page, errors } = await openWatchedPage(browser);
    const dx = new DiagnosisPage(page);
    // The page's clock is the server's (its data lie in the fixture's past): an open insight's charts end at now.
    await page.clock.setFixedTime(NOW_MS);
    await page.goto(`${base}/`);
    await dx.insightLinks().first().waitFor({ timeout: 30_000 });
    expect(await dx.insightLinks().evaluateAll((els) => els.map((e) => e.getAttribute('data-insight')))).toEqual([open.id]);
    await dx.insightLinks().first().click();
    await page.waitForURL(/\/diagnosis\?insight=/);
    await dx.settled();
    expect(await dx.insight()).toEqual({ id: open.id, state: 'open' });
    expect(await dx.causes()).toEqual(['kv-cache-pressure']);
    expect(await dx.ruledOut()).toEqual(['none']);
    expect(await dx.chartState('symptom-chart')).toBe('ready');
    expect(await dx.chartState('evidence-chart')).toBe('ready');
    expect(await dx.selectedCells()).toEqual(['llama-a-0']);
    await saveScreenshot(page, 'diagnosis');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
