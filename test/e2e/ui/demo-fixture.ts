/**
 * What the browser suites share: an `infersight demo` sped up 60 times and scraped every second,
 * a Chromium, and the two API reads the tests check the page against (instant PromQL and the
 * simulator's targets). `startUiDemo` waits until the engines with a TTFT histogram (vLLM and
 * SGLang) have rates, so quantiles have data; nothing sleeps.
 */
import type { Browser } from 'playwright-core';
import { tempDir } from '../../../src/tsdb/testing/temp-dir.js';
import { waitFor } from '../../peers/peers.js';
import { startDemoCli, type RunningDemoCli } from '../cli.js';
import { launchChromium } from './browser.js';

/** One sample of an instant vector, as the query API answers it. */
export interface InstantSample {
  metric: Record<string, string>;
  value: [number, string];
}

/** An instant query through the demo's API. */
export async function promql(base: string, q: string): Promise<InstantSample[]> {
  const res = await fetch(`${base}/api/v1/query`, { method: 'POST', body: new URLSearchParams({ query: q }) });
  return ((await res.json()) as { data: { result: InstantSample[] } }).data.result;
}

/** The simulator's targets: the labels of its file_sd groups (identity of each engine and exporter). */
export async function simTargets(base: string): Promise<Record<string, string>[]> {
  const body = (await (await fetch(`${base}/api/v1/sim/targets`)).json()) as { data: { labels: Record<string, string> }[] };
  return body.data.map((g) => g.labels);
}

/** A running demo and browser; `stop` closes both and removes the data directory. */
export interface UiDemo {
  readonly demo: RunningDemoCli;
  readonly browser: Browser;
  stop(): Promise<void>;
}

/** Starts the demo (`name` names its temp data directory) and Chromium, and waits for TTFT rates from every engine. */
export async function startUiDemo(name: string, chromiumPath: string): Promise<UiDemo> {
  const t = tempDir(name);
  const demo = await startDemoCli(['--data', t.dir, '--speed', '60', '--scrape-interval', '1s']);
  const browser = await launchChromium(chromiumPath);
  await waitFor(
    'TTFT rates from every engine',
    async () => {
      const r = await promql(demo.base, 'count by (engine) (rate(llm_time_to_first_token_seconds_count[30s]) > 0)');
      return r.length >= 2 ? r : undefined;
    },
    120_000,
  );
  return {
    demo,
    browser,
    stop: async () => {
      await browser.close();
      await demo.stop();
      t.remove();
    },
  };
}
