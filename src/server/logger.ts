import type { LogFields, Logger } from '../model/index.js';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

function quote(v: string): string {
  return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
}

/**
 * A logfmt logger writing one line per call to a stream (stderr in production):
 * `ts=2026-11-30T03:00:00.000Z level=info msg="WAL replay done" segments=3`.
 */
export class LogfmtLogger implements Logger {
  constructor(
    private readonly write: (line: string) => void,
    private readonly minLevel: Level = 'info',
    private readonly now: () => number = Date.now,
  ) {}

  debug(msg: string, fields?: LogFields): void {
    this.log('debug', msg, fields);
  }
  info(msg: string, fields?: LogFields): void {
    this.log('info', msg, fields);
  }
  warn(msg: string, fields?: LogFields): void {
    this.log('warn', msg, fields);
  }
  error(msg: string, fields?: LogFields): void {
    this.log('error', msg, fields);
  }

  private log(level: Level, msg: string, fields: LogFields = {}): void {
    if (ORDER[level] < ORDER[this.minLevel]) return;
    let line = `ts=${new Date(this.now()).toISOString()} level=${level} msg=${quote(msg)}`;
    for (const [k, v] of Object.entries(fields)) {
      if (v === undefined) continue;
      line += ` ${k}=${quote(String(v))}`;
    }
    this.write(line + '\n');
  }
}
