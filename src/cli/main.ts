import { ConfigError } from '../config/index.js';
import { UsageError } from './args.js';
import { checkRulesCommand } from './check-rules.js';
import { demoCommand } from './demo.js';
import { diagnoseCommand } from './diagnose.js';
import { gatewayCommand } from './gateway.js';
import { ListenError } from './listen-error.js';
import { serveCommand } from './serve.js';
import { simCommand } from './sim.js';

const USAGE = `Usage: infersight <command> [flags]

Commands:
  demo      the whole product in one process: a simulated fleet, scraped and queryable
  serve     run the server on the embedded time-series database
  sim       run a simulated LLM inference fleet (targets for scraping, OpenAI API, faults)
  gateway   run the OpenAI-compatible gateway alone, in front of engine replicas
  check-rules  check Prometheus rule files as 'promtool check rules' does
  diagnose  ask a running server what caused a latency or throughput regression
  help      show this text

Run 'infersight <command> --help' for a command's flags.
`;

/** The CLI entry point: dispatches to a command and returns the process exit status. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serveCommand(rest);
      case 'demo':
        return await demoCommand(rest);
      case 'sim':
        return await simCommand(rest);
      case 'gateway':
        return await gatewayCommand(rest);
      case 'check-rules':
        return await checkRulesCommand(rest);
      case 'diagnose':
        return await diagnoseCommand(rest);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') === true) {
      console.error(e instanceof UsageError && !e.withUsage ? `infersight: ${e.message}` : `infersight: ${(e as Error).message}\n\n${USAGE}`);
      return 2;
    }
    // A busy or forbidden listen address: one line naming the flag, no stack (listen-error.ts).
    // A broken file found while starting (a rule file of --config.file): its message says the
    // file, line and column, as promtool does; a stack would only show Infersight's internals.
    if (e instanceof ListenError || e instanceof ConfigError) {
      console.error(`infersight: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
