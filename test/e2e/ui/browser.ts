/**
 * Debian's Chromium through playwright-core, with the flags CI machines need, and what every
 * browser test collects: console errors, uncaught page errors, failed API requests. Screenshots
 * go to `test-artifacts/screenshots/` (kept by CI as the tests' artifacts; ignored by git).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** The flags of .ci/run's Chromium: headless, no sandbox (root in CI), no network beyond the test. */
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** Where screenshots are written. */
export const SCREENSHOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test-artifacts/screenshots');

/** Launches Chromium from `executablePath` (findPeer('chromium')). */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_FLAGS });
}

/** A page and the problems it reported. */
export interface WatchedPage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** `console.error` messages and uncaught exceptions, in order. */
  readonly errors: string[];
}

/** Opens a fresh context (its own storage, a fixed viewport) and a page that records its errors. */
export async function openWatchedPage(browser: Browser, opts: { colorScheme?: 'light' | 'dark' } = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 }, colorScheme: opts.colorScheme ?? 'dark' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 500) errors.push(`HTTP ${r.status()} ${r.url()}`);
  });
  return { page, context, errors };
}

/** Saves a full-page screenshot as `<name>.png` under SCREENSHOT_DIR and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
