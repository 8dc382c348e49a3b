import { parseArgs } from 'node:util';
import { formatPromDuration } from '../config/index.js';
import { systemClock } from '../model/index.js';
import { parseListenAddress } from '../http/index.js';
import { LogfmtLogger, faultMenu, isFreshDataDir, startDemo, type HistoryProgress, type HistoryReport } from '../server/index.js';
import { isScenarioName } from '../sim/index.js';
import { UsageError, parseDurationFlag, parsePositiveFlag, unknownScenarioError } from './args.js';
import { rethrowListenError } from './listen-error.js';
import { readScenarioFile } from './scenario-file.js';
import { untilSignal } from './until-signal.js';

/** Usage text of `infersight demo`. */
export const DEMO_USAGE = `Usage: infersight demo [flags]

Runs the whole product in one process: a simulated LLM inference fleet (vLLM, SGLang, DJL/LMI,
DCGM, front door, quality), the embedded store scraping it, normalized into the unified metric
catalog, the Prometheus-compatible query API, and the default LLM rule pack (alerts and SLOs;
DIR/sim/rules/, where more rule files can go: SIGHUP reloads them). Faults can be injected while
it runs.

Flags:
  --listen HOST:PORT    address of the server (default 127.0.0.1:9300)
  --data DIR            data directory (default ./data; the fleet's files go to DIR/sim/)
  --scenario NAME       demo (default), a fault scenario ('infersight sim --list') or fleet-<N>
  --scenario-file FILE  a scenario in JSON instead (docs/sim.md; faults start relative to the
                        start of the history)
  --history DUR         on a fresh data directory, first simulate the last DUR as fast as it
                        goes and store it, then go live (default 3h, less or none for big fleets;
                        0: none). /-/ready answers 503 until the history is in.
  --speed N             virtual seconds per real second once live (default 1; rates on the
                        charts are then per real second, N times the simulated ones)
  --seed S              random seed of the fleet (default 1)
  --scrape-interval DUR how often the fleet is scraped (default 15s)
  --gateway.listen ADDR the OpenAI-compatible gateway in front of the simulated replicas
                        (default 127.0.0.1:9310, a free port when that is busy; off: none)
  --gateway.share X     share of the simulated arrivals sent through the gateway (default 0.25)
  --gateway.max-rps N   at most N requests per real second through it (default 10)
  --log-level LEVEL     debug | info | warn | error (default warn)
`;

type Level = 'debug' | 'info' | 'warn' | 'error';

/** What the demo prints once it is up: where to look and how to inject a fault; `notes` (history, speed) follow the first line. */
export function demoBanner(base: string, targets: number, scenario: string, gatewayUrl?: string, notes: readonly string[] = []): string {
  const q = (expr: string): string => `curl -s '${base}/api/v1/query' --data-urlencode 'query=${expr}'`;
  return [
    `Infersight demo is running (scenario ${scenario}, ${targets} simulated targets).`,
    ...notes.map((n) => `  ${n}`),
    '',
    `  Insights UI:               ${base}/  (fleet hex grid, latency, KV pressure, AZ traffic; Explore: ${base}/explore)`,
    `  Prometheus-compatible API: ${base}  (add it to Grafana as a Prometheus data source)`,
    `  P99 time to first token:   ${q('histogram_quantile(0.99, sum by (le, model) (rate(llm_time_to_first_token_seconds_bucket[5m])))')}`,
    `  KV-cache usage:            ${q('max by (model, replica) (llm_kv_cache_usage_ratio)')}`,
    `  Metric catalog:            ${base}/api/v1/metadata`,
    '',
    'Inject a fault (the ground truth is at /api/v1/sim/ground-truth):',
    `  curl -s -X POST ${base}/api/v1/sim/faults -H 'Content-Type: application/json' -d '{"kind":"kv-cache-pressure","scope":{"component":"gpt-oss-20b"},"duration":"10m"}'`,
    `  clear it early: curl -s -X DELETE ${base}/api/v1/sim/faults/<id>  (the "id" in the answer)`,
    'Fault kinds:',
    ...faultMenu().map((l) => `  ${l}`),
    '',
    ...(gatewayUrl === undefined
      ? []
      : [
          '',
          `OpenAI-compatible gateway: ${gatewayUrl}/v1  (a share of the load goes through it; try it:)`,
          `  curl -s ${gatewayUrl}/v1/chat/completions -H 'Content-Type: application/json' -d '{"model":"openai/gpt-oss-20b","messages":[{"role":"user","content":"hi"}]}'`,
        ]),
    '',
    'Ctrl-C stops everything.',
    '',
  ].join('\n');
}

/** Prints a line each time the history replay passes another tenth. */
function historyProgressPrinter(): (p: HistoryProgress) => void {
  let printed = 0;
  return (p) => {
    const tenth = Math.floor((10 * p.replayedMs) / Math.max(1, p.totalMs));
    if (tenth <= printed) return;
    printed = tenth;
    process.stdout.write(`  history: ${Math.min(100, tenth * 10)} % (${formatPromDuration(Math.floor(p.replayedMs / 60_000) * 60_000)} of virtual time) in ${(p.elapsedMs / 1000).toFixed(1)} s, ${p.samples.toLocaleString('en-US')} samples\n`);
  };
}

/** The banner's lines on history and speed. */
export function demoNotes(history: HistoryReport | null, speed: number): string[] {
  const notes: string[] = [];
  if (history !== null) {
    notes.push(
      `History: the last ${formatPromDuration(Math.round((history.endMs - history.startMs) / 60_000) * 60_000)} replayed in ${(history.elapsedMs / 1000).toFixed(1)} s (${history.samples.toLocaleString('en-US')} samples), live since ${new Date(history.endMs + history.skippedMs).toISOString()}.`,
    );
    if (history.skippedMs > 0) notes.push(`The replay was slower than the clock: the ${formatPromDuration(Math.round(history.skippedMs / 1000) * 1000)} before going live were simulated without samples (a gap).`);
  }
  if (speed !== 1) {
    notes.push(`Speed ${speed}x: rates (requests/s, tokens/s) are per real second, ${speed} times the simulated fleet's per simulated second; the UI says so.`);
  }
  return notes;
}

/** Runs `infersight demo` until SIGTERM/SIGINT; resolves with the exit status. */
export async function demoCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      listen: { type: 'string', default: '127.0.0.1:9300' },
      data: { type: 'string', default: './data' },
      scenario: { type: 'string', default: 'demo' },
      'scenario-file': { type: 'string' },
      history: { type: 'string' },
      speed: { type: 'string', default: '1' },
      seed: { type: 'string', default: '1' },
      'scrape-interval': { type: 'string', default: '15s' },
      'gateway.listen': { type: 'string' },
      'gateway.share': { type: 'string', default: '0.25' },
      'gateway.max-rps': { type: 'string', default: '10' },
      'log-level': { type: 'string', default: 'warn' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help === true) {
    process.stdout.write(DEMO_USAGE);
    return 0;
  }
  const level = values['log-level'];
  if (!['debug', 'info', 'warn', 'error'].includes(level)) throw new UsageError(`invalid --log-level ${JSON.stringify(level)}`);
  if (!isScenarioName(values.scenario)) throw unknownScenarioError(values.scenario);
  parseDurationFlag('scrape-interval', values['scrape-interval']);
  const file = values['scenario-file'];
  const scenario = file === undefined ? values.scenario : await readScenarioFile(file, argv);
  const scenarioName = typeof scenario === 'string' ? scenario : scenario.name;
  // The default history is shortened for big fleets; one asked for is replayed as asked.
  const historyText = values.history ?? '3h';
  const historyMs = historyText === '0' ? 0 : parseDurationFlag('history', historyText);
  const speed = parsePositiveFlag('speed', values.speed, false);
  try {
    parseListenAddress(values.listen);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const gwListen = values['gateway.listen'];
  if (gwListen !== undefined && gwListen !== 'off') {
    try {
      parseListenAddress(gwListen);
    } catch (e) {
      throw new UsageError(`--gateway.listen: ${(e as Error).message}`);
    }
  }
  const share = Number(values['gateway.share']);
  if (!(share >= 0 && share <= 1)) throw new UsageError(`invalid --gateway.share ${JSON.stringify(values['gateway.share'])}: want a number from 0 to 1`);
  const gateway =
    gwListen === 'off'
      ? false
      : { listen: gwListen ?? '127.0.0.1:9310', listenRequired: gwListen !== undefined, share, maxPerSec: parsePositiveFlag('gateway.max-rps', values['gateway.max-rps'], false) };
  const logger = new LogfmtLogger((line) => process.stderr.write(line), level as Level);
  // Only an address the user gave can be busy: the gateway's default falls back to a free port.
  const listenFlags = { '--listen': values.listen, '--gateway.listen': gwListen === 'off' ? undefined : gwListen };
  const fresh = await isFreshDataDir(values.data);
  const { help: _help, ...given } = values;
  const flags: Record<string, string> = { ...given, history: historyText, speed: String(speed) };
  const demo = await startDemo({
    gateway,
    listen: values.listen,
    storage: { dir: values.data },
    scenario,
    speed,
    seed: parsePositiveFlag('seed', values.seed, true),
    scrapeInterval: values['scrape-interval'],
    history: { durationMs: historyMs, fit: values.history === undefined, onProgress: historyProgressPrinter() },
    // The UI reads `speed` from /api/v1/status/flags to say what its rates are per.
    flags,
    logger,
    clock: systemClock,
  }).catch(rethrowListenError(listenFlags));
  const a = demo.server.http.address;
  const base = `http://${a.address}:${a.port}`;
  const h = demo.history;
  if (h !== null) {
    process.stdout.write(`Replaying the last ${formatPromDuration(h.durationMs)} of the simulated fleet in virtual time before going live (the UI is at ${base}/ already; /-/ready answers 503 until the history is in).\n`);
  }
  await demo.server.ready;
  const report = h === null ? null : await h.done;
  // A machine-readable line first (tests and scripts wait for it), then the menu for people.
  process.stderr.write(`ts=${new Date().toISOString()} level=info msg=ready address=${a.address}:${a.port} sim=${demo.sim.url}\n`);
  const notes = demoNotes(report, speed);
  if (historyMs > 0 && h === null) {
    notes.unshift(fresh ? 'History: none (the fleet is too big for the default history; --history DUR asks for one).' : `History: none replayed, ${values.data} holds data already (delete it for a fresh history).`);
  }
  process.stdout.write(demoBanner(base, demo.sim.targets().length, scenarioName, demo.server.gateway?.url, notes));
  // SIGHUP re-reads <data>/sim/scrape.yml and the rule files beside the pack, as `serve` does.
  process.on('SIGHUP', () => {
    demo.server.reloadConfig().catch((e: unknown) => logger.error('reloading the configuration failed', { err: (e as Error).message }));
  });
  return untilSignal(() => demo.close(), logger);
}
