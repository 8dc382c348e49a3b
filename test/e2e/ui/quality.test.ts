/**
 * Browser test of the Quality page: Debian's Chromium against the built UI, served by an
 * in-process server whose sample store (the real embedded one, PGlite in memory) was filled through
 * the store port, with one response and one judge's reasoning full of markup and script. The page
 * lists the samples of its range, narrows them by the filters, and shows the hostile pair's texts
 * literally: nothing runs, no element is made from them. Nothing sleeps: every wait is for a condition.
 */
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Browser } from 'playwright-core';
import { MemoryLogger } from '../../../src/model/index.js';
import { startServer, type RunningServer } from '../../../src/server/index.js';
import { openSampleStore } from '../../../src/quality/index.js';
import { testFlag, testJudgeEvaluation, testPair } from '../../../src/server/testing/quality-fixture.js';
import { tempDir } from '../../../src/tsdb/testing/temp-dir.js';
import { findPeer, itWithPeer } from '../../peers/peers.js';
import { launchChromium, openWatchedPage, saveScreenshot } from './browser.js';
import { QualityPage } from './pages/quality-page.js';

const NOW_MS = Date.UTC(2026, 0, 5, 13);
const MIN = 60_000;
const HOSTILE = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">';
let server: RunningServer | undefined;
let browser: Browser | undefined;
let base = '';
const dir = tempDir('ui-quality');

beforeAll(async () => {
  const store = await openSampleStore({ kind: 'pglite', dir: null });
  await store.putPairs([
    testPair('calm', NOW_MS - 30 * MIN),
    testPair('hostile', NOW_MS - 20 * MIN, { model: 'qwen-7b', component: 'qwen-a', response: HOSTILE }),
    testPair('empty', NOW_MS - 10 * MIN, { response: '' }),
  ]);
  await store.putEvaluations([
    testJudgeEvaluation('calm', 'safety', 0.97, NOW_MS - 30 * MIN),
    testJudgeEvaluation('hostile', 'safety', 0.1, NOW_MS - 20 * MIN, `unsafe answer: ${HOSTILE}`),
    testFlag('empty', 'empty', NOW_MS - 10 * MIN),
  ]);
  server = await startServer({ listen: '127.0.0.1:0', storage: { dir: dir.dir, fsync: { mode: 'never' } }, logger: new MemoryLogger(), clock: () => NOW_MS, quality: { defaults: {}, openStore: async () => store } });
  await server.ready;
  base = `http://127.0.0.1:${server.http.address.port}`;
  const chromium = findPeer('chromium');
  if (chromium !== null) browser = await launchChromium(chromium);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  dir.remove();
});

describe('the Quality page in the browser', () => {
  itWithPeer('lists, filters and shows a response full of markup as text, running none of it', 'chromium', async () => {
    if (browser === undefined) throw new Error('no browser');
    const { page, errors } = await openWatchedPage(browser);
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    const q = new QualityPage(page);
    await page.clock.setFixedTime(NOW_MS);
    await page.goto(`${base}/quality`);
    expect(await q.sampleIds()).toEqual(['empty', 'hostile', 'calm']);
    await q.filterFlag('empty');
    await page.locator('[data-testid="sample-row"][data-sample="empty"]').waitFor();
    await page.waitForFunction('document.querySelectorAll(\'[data-testid="sample-row"]\').length === 1');
    await q.filterFlag('');
    await q.filterDimension('safety');
    await page.waitForFunction('document.querySelectorAll(\'[data-testid="sample-row"]\').length === 2');
    expect(await q.sampleIds()).toEqual(['hostile', 'calm']);
    const detail = await q.open('hostile');
    expect(await q.responseText()).toBe(HOSTILE);
    expect(await q.evaluationDetails()).toEqual([`unsafe answer: ${HOSTILE}`]);
    expect(await detail.locator('script, img').count()).toBe(0);
    expect(await page.evaluate('typeof window.pwned')).toBe('undefined');
    expect(dialogs).toBe(0);
    expect(await page.getByTestId('nav-quality').getAttribute('aria-current')).toBe('page');
    await saveScreenshot(page, 'quality');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
