import { parseArgs } from 'node:util';
import { GatewayConfigError, loadGatewayConfigFile, startGateway } from '../gateway/index.js';
import { systemClock } from '../model/index.js';
import { parseListenAddress } from '../http/index.js';
import { LogfmtLogger } from '../server/index.js';
import { RemoteWriteAppendable, type Appendable } from '../storage/index.js';
import { Db } from '../tsdb/index.js';
import { UsageError } from './args.js';
import { rethrowListenError } from './listen-error.js';
import { untilSignal } from './until-signal.js';

/** Usage text of `infersight gateway`. */
export const GATEWAY_USAGE = `Usage: infersight gateway --config FILE [flags]

Runs the OpenAI-compatible gateway alone: POST /v1/chat/completions and /v1/completions
(streaming and not) and GET /v1/models in front of the engine replicas the file lists, measuring
client-side TTFT, inter-chunk latency, overhead and error classes. docs/gateway.md has the file
format. SIGHUP re-reads the file (models, replicas, limits; the listener stays).

Flags:
  --config FILE         gateway configuration (YAML), required
  --listen HOST:PORT    overrides 'listen' in the file (default there: 127.0.0.1:9310)
  --remote-write URL    send the metrics by Prometheus remote write, e.g. to a running
                        'infersight serve': http://127.0.0.1:9300/api/v1/write
  --data DIR            or write them into an embedded store in DIR ('infersight serve --data DIR'
                        reads it later; not both at once)
                        Without either, the metrics are only at GET /metrics on the gateway.
  --log-level LEVEL     debug | info | warn | error (default info)
`;

type Level = 'debug' | 'info' | 'warn' | 'error';

/** An Appendable that drops everything (metrics only at GET /metrics). */
const discard: Appendable = { appender: () => ({ append: (ref) => ref, commit: async () => undefined, rollback: () => undefined }) };

/** Runs `infersight gateway` until SIGTERM/SIGINT; resolves with the exit status. */
export async function gatewayCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      config: { type: 'string' },
      listen: { type: 'string' },
      'remote-write': { type: 'string' },
      data: { type: 'string' },
      'log-level': { type: 'string', default: 'info' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help === true) {
    process.stdout.write(GATEWAY_USAGE);
    return 0;
  }
  const level = values['log-level'];
  if (!['debug', 'info', 'warn', 'error'].includes(level)) throw new UsageError(`invalid --log-level ${JSON.stringify(level)}`);
  if (values.config === undefined) throw new UsageError('gateway: --config FILE is required');
  if (values['remote-write'] !== undefined && values.data !== undefined) throw new UsageError('gateway: give --remote-write or --data, not both');
  if (values.listen !== undefined) {
    try {
      parseListenAddress(values.listen);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  const rw = values['remote-write'];
  if (rw !== undefined && !/^https?:\/\//.test(rw)) throw new UsageError(`invalid --remote-write ${JSON.stringify(rw)}: want an http(s) URL`);
  const logger = new LogfmtLogger((line) => process.stderr.write(line), level as Level);
  const file = values.config;
  const load = async (): Promise<Awaited<ReturnType<typeof loadGatewayConfigFile>> | null> => {
    try {
      return await loadGatewayConfigFile(file);
    } catch (e) {
      if (!(e instanceof GatewayConfigError)) throw e;
      logger.error('error loading gateway config', { file, err: e.message });
      return null;
    }
  };
  const config = await load();
  if (config === null) return 1;
  const db = values.data === undefined ? null : await Db.open({ dir: values.data, logger, clock: systemClock });
  const appendable: Appendable = db ?? (rw === undefined ? discard : new RemoteWriteAppendable(rw));
  const listenFlags = values.listen !== undefined ? { '--listen': values.listen } : { [`'listen' in ${file}`]: config.listen };
  const gw = await startGateway({ config, appendable, listen: values.listen, logger, now: systemClock })
    .catch(rethrowListenError(listenFlags))
    .catch(async (e: unknown) => {
      await db?.close();
      throw e;
    });
  logger.info('ready', { address: gw.address, models: config.models.length, metrics: db !== null ? `store ${values.data ?? ''}` : (rw ?? 'GET /metrics only') });
  process.on('SIGHUP', () => {
    load().then(
      (c) => {
        if (c === null) return;
        gw.reconfigure(c);
        logger.info('gateway: configuration reloaded', { file, models: c.models.length });
      },
      (e: unknown) => logger.error('reloading the gateway configuration failed', { file, err: e instanceof Error ? e.message : String(e) }),
    );
  });
  return untilSignal(async () => {
    await gw.close();
    await db?.close();
  }, logger);
}
