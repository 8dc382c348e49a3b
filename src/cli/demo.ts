import { parseArgs } from 'node:util';
import { systemClock } from '../model/index.js';
import { LogfmtLogger, faultMenu, parseListenAddress, startDemo } from '../server/index.js';
import { isScenarioName } from '../sim/index.js';
import { UsageError, parseDurationFlag, parsePositiveFlag } from './args.js';
import { untilSignal } from './until-signal.js';

/** Usage text of `infersight demo`. */
export const DEMO_USAGE = `Usage: infersight demo [flags]

Runs the whole product in one process: a simulated LLM inference fleet (vLLM, SGLang, DJL/LMI,
DCGM, front door, quality), the embedded store scraping it, normalized into the unified metric
catalog, and the Prometheus-compatible query API. Faults can be injected while it runs.

Flags:
  --listen HOST:PORT    address of the server (default 127.0.0.1:9300)
  --data DIR            data directory (default ./data; the fleet's files go to DIR/sim/)
  --scenario NAME       demo (default), a fault scenario ('infersight sim --list') or fleet-<N>
  --speed N             virtual seconds per real second (default 1)
  --seed S              random seed of the fleet (default 1)
  --scrape-interval DUR how often the fleet is scraped (default 15s)
  --gateway.listen ADDR the OpenAI-compatible gateway in front of the simulated replicas
                        (default 127.0.0.1:9310, a free port when that is busy; off: none)
  --gateway.share X     share of the simulated arrivals sent through the gateway (default 0.25)
  --gateway.max-rps N   at most N requests per real second through it (default 10)
  --log-level LEVEL     debug | info | warn | error (default warn)
`;

type Level = 'debug' | 'info' | 'warn' | 'error';

/** What the demo prints once it is up: where to look and how to inject a fault. */
export function demoBanner(base: string, targets: number, scenario: string, gatewayUrl?: string): string {
  const q = (expr: string): string => `curl -s '${base}/api/v1/query' --data-urlencode 'query=${expr}'`;
  return [
    `Infersight demo is running (scenario ${scenario}, ${targets} simulated targets).`,
    '',
    `  Insights UI:               ${base}/  (fleet hex grid, latency, KV pressure, AZ traffic; Explore: ${base}/explore)`,
    `  Prometheus-compatible API: ${base}  (add it to Grafana as a Prometheus data source)`,
    `  P99 time to first token:   ${q('histogram_quantile(0.99, sum by (le, model) (rate(llm_time_to_first_token_seconds_bucket[5m])))')}`,
    `  KV-cache usage:            ${q('max by (model, replica) (llm_kv_cache_usage_ratio)')}`,
    `  Metric catalog:            ${base}/api/v1/metadata`,
    '',
    'Inject a fault (the ground truth is at /api/v1/sim/ground-truth):',
    `  curl -s -X POST ${base}/api/v1/sim/faults -H 'Content-Type: application/json' -d '{"kind":"kv-cache-pressure","scope":{"component":"gpt-oss-20b"},"duration":"10m"}'`,
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

/** Runs `infersight demo` until SIGTERM/SIGINT; resolves with the exit status. */
export async function demoCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      listen: { type: 'string', default: '127.0.0.1:9300' },
      data: { type: 'string', default: './data' },
      scenario: { type: 'string', default: 'demo' },
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
  if (!isScenarioName(values.scenario)) {
    throw new UsageError(`unknown --scenario ${JSON.stringify(values.scenario)}; run 'infersight sim --list'`);
  }
  parseDurationFlag('scrape-interval', values['scrape-interval']);
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
  const demo = await startDemo({
    gateway,
    listen: values.listen,
    storage: { dir: values.data },
    scenario: values.scenario,
    speed: parsePositiveFlag('speed', values.speed, false),
    seed: parsePositiveFlag('seed', values.seed, true),
    scrapeInterval: values['scrape-interval'],
    logger,
    clock: systemClock,
  });
  await demo.server.ready;
  const a = demo.server.http.address;
  const base = `http://${a.address}:${a.port}`;
  // A machine-readable line first (tests and scripts wait for it), then the menu for people.
  process.stderr.write(`ts=${new Date().toISOString()} level=info msg=ready address=${a.address}:${a.port} sim=${demo.sim.url}\n`);
  process.stdout.write(demoBanner(base, demo.sim.targets().length, values.scenario, demo.server.gateway?.url));
  return untilSignal(() => demo.close(), logger);
}
