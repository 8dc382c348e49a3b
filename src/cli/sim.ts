import { parseArgs } from 'node:util';
import { FAULT_DEFAULTS, FAULT_KINDS, HONOR_LABELS_JOBS, SCENARIOS, isScenarioName, startSimulation } from '../sim/index.js';
import { LogfmtLogger } from '../server/index.js';
import { UsageError, parsePositiveFlag, unknownScenarioError } from './args.js';
import { rethrowListenError } from './listen-error.js';
import { readScenarioFile } from './scenario-file.js';
import { untilSignal } from './until-signal.js';

/** Usage text of `infersight sim`. */
export const SIM_USAGE = `Usage: infersight sim [flags]

Runs a simulated LLM inference fleet (vLLM, SGLang and DJL/LMI replicas, a DCGM exporter per
instance, front door, platform and quality exporters) and writes a file_sd file for scraping.

Flags:
  --scenario NAME       demo (default), steady, a fault scenario (see --list), or fleet-<N>
                        (N single-GPU instances, steady load: the benchmark fleet)
  --scenario-file FILE  a scenario in JSON instead (docs/sim.md; docs/examples/scenario.json)
  --speed N             virtual seconds per real second (default 1)
  --seed S              random seed (default 1)
  --listen HOST:PORT    address of the one listener all targets share (default 127.0.0.1:9400)
  --file-sd PATH        file_sd JSON of the targets (default ./data/sim/file_sd.json)
  --ground-truth PATH   fault ground truth JSON (default ./data/sim/ground-truth.json)
  --log-level LEVEL     debug | info | warn | error (default info)
  --list                list the scenarios and fault kinds, then exit
`;

function listing(): string {
  const lines = ['Scenarios:', '  demo                         the steady fleet with a two-hour diurnal cycle; inject faults via the API'];
  for (const s of Object.values(SCENARIOS)) lines.push(`  ${s.name.padEnd(28)} ${s.description}`);
  lines.push(`  ${'fleet-<N>'.padEnd(28)} The benchmark fleet: N single-GPU instances (1 to 5,000), steady load.`);
  lines.push('', 'Fault kinds (POST /api/v1/sim/faults):');
  for (const k of FAULT_KINDS) lines.push(`  ${k.padEnd(28)} ${FAULT_DEFAULTS[k].effect}`);
  return lines.join('\n') + '\n';
}

type Level = 'debug' | 'info' | 'warn' | 'error';

/** Runs `infersight sim` until SIGTERM/SIGINT; resolves with the exit status. */
export async function simCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      scenario: { type: 'string', default: 'demo' },
      'scenario-file': { type: 'string' },
      speed: { type: 'string', default: '1' },
      seed: { type: 'string', default: '1' },
      listen: { type: 'string', default: '127.0.0.1:9400' },
      'file-sd': { type: 'string', default: './data/sim/file_sd.json' },
      'ground-truth': { type: 'string', default: './data/sim/ground-truth.json' },
      'log-level': { type: 'string', default: 'info' },
      list: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help === true) {
    process.stdout.write(SIM_USAGE);
    return 0;
  }
  if (values.list === true) {
    process.stdout.write(listing());
    return 0;
  }
  const level = values['log-level'];
  if (!['debug', 'info', 'warn', 'error'].includes(level)) throw new UsageError(`invalid --log-level ${JSON.stringify(level)}`);
  if (!isScenarioName(values.scenario)) throw unknownScenarioError(values.scenario);
  const file = values['scenario-file'];
  const scenario = file === undefined ? values.scenario : await readScenarioFile(file, argv);
  const scenarioName = typeof scenario === 'string' ? scenario : scenario.name;
  const speed = parsePositiveFlag('speed', values.speed, false);
  const seed = parsePositiveFlag('seed', values.seed, true);
  const logger = new LogfmtLogger((line) => process.stderr.write(line), level as Level);
  const run = await startSimulation({
    scenario,
    speed,
    seed,
    listen: values.listen,
    fileSdPath: values['file-sd'],
    groundTruthPath: values['ground-truth'],
    logger,
  }).catch(rethrowListenError({ '--listen': values.listen }));
  const targets = run.targets();
  process.stdout.write(
    [
      `Simulated fleet "${scenarioName}" at ${run.url} (speed ${speed}x, seed ${seed}): ${targets.length} targets.`,
      `  file_sd:      ${values['file-sd']}   (two scrape jobs over it, honor_labels: true for jobs ${HONOR_LABELS_JOBS.join(', ')}: docs/sim.md)`,
      `  ground truth: ${values['ground-truth']}  and  GET ${run.url}/api/v1/sim/ground-truth`,
      `  OpenAI API:   POST ${run.url}/v1/chat/completions  {"model": "openai/gpt-oss-20b", "messages": [...], "stream": true}`,
      `  Inject a fault:  curl -X POST ${run.url}/api/v1/sim/faults -d '{"kind":"slow-instance","scope":{"instance":"chat-prod-i1"},"duration":"10m"}'`,
      `  Clear one:       curl -X DELETE ${run.url}/api/v1/sim/faults/<id>`,
      `  Fault kinds:  ${FAULT_KINDS.join(', ')}`,
      '',
    ].join('\n'),
  );
  return untilSignal(() => run.close(), logger);
}
