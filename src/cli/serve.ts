import { parseArgs } from 'node:util';
import { systemClock } from '../model/index.js';
import { LogfmtLogger, parseListenAddress, startServer } from '../server/index.js';
import type { FsyncPolicy } from '../tsdb/index.js';
import { UsageError, parseBytes, parseDurationFlag } from './args.js';

/** Usage text of `infersight serve`. */
export const SERVE_USAGE = `Usage: infersight serve [flags]

Runs the Infersight server on the embedded time-series database.

Flags:
  --listen HOST:PORT        address to listen on (default 127.0.0.1:9300)
  --data DIR                data directory (default ./data)
  --retention DURATION      delete blocks older than this (default 15d; 0 disables)
  --retention-size SIZE     delete the oldest blocks above this size (e.g. 50GB; default off)
  --wal-fsync MODE          always | interval | never (default interval)
  --out-of-order-window DUR accept samples this far behind the newest one (default 0: off)
  --wal-fsync-interval DUR  fsync period for --wal-fsync=interval (default 1s)
  --log-level LEVEL         debug | info | warn | error (default info)
`;

type Level = 'debug' | 'info' | 'warn' | 'error';

/** Runs `infersight serve` until SIGTERM/SIGINT; resolves with the exit status. */
export async function serveCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      listen: { type: 'string', default: '127.0.0.1:9300' },
      data: { type: 'string', default: './data' },
      retention: { type: 'string', default: '15d' },
      'retention-size': { type: 'string' },
      'wal-fsync': { type: 'string', default: 'interval' },
      'wal-fsync-interval': { type: 'string', default: '1s' },
      'out-of-order-window': { type: 'string', default: '0' },
      'log-level': { type: 'string', default: 'info' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help === true) {
    process.stdout.write(SERVE_USAGE);
    return 0;
  }
  const level = values['log-level'];
  if (!['debug', 'info', 'warn', 'error'].includes(level)) throw new UsageError(`invalid --log-level ${JSON.stringify(level)}`);
  const mode = values['wal-fsync'];
  let fsync: FsyncPolicy;
  if (mode === 'always' || mode === 'never') fsync = { mode };
  else if (mode === 'interval') fsync = { mode, intervalMs: parseDurationFlag('wal-fsync-interval', values['wal-fsync-interval']) };
  else throw new UsageError(`invalid --wal-fsync ${JSON.stringify(mode)}: want always, interval or never`);
  const retention = values.retention === '0' ? 0 : parseDurationFlag('retention', values.retention);
  const oooWindow = values['out-of-order-window'] === '0' ? 0 : parseDurationFlag('out-of-order-window', values['out-of-order-window']);
  const retentionBytes = values['retention-size'] === undefined ? 0 : parseBytes(values['retention-size']);

  try {
    parseListenAddress(values.listen);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }

  const logger = new LogfmtLogger((line) => process.stderr.write(line), level as Level);
  const server = await startServer({
    listen: values.listen,
    storage: { dir: values.data, retentionMs: retention, retentionBytes, fsync, outOfOrderWindowMs: oooWindow },
    logger,
    clock: systemClock,
  });
  await server.ready;
  const a = server.http.address;
  logger.info('ready', { address: `${a.address}:${a.port}`, data: values.data });
  return new Promise<number>((resolve) => {
    const stop = (signal: string) => {
      logger.info('shutting down', { signal });
      server.close().then(
        () => resolve(0),
        (e: unknown) => {
          logger.error('shutdown failed', { err: e instanceof Error ? e.message : String(e) });
          resolve(1);
        },
      );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
