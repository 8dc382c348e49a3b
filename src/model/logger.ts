/**
 * The logging port every module writes through. The CLI binds it to a structured stderr logger;
 * tests bind it to a recorder. Fields are flat key/value pairs (logfmt-style), never nested.
 */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

/** Flat structured fields of one log line. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** A logger that drops everything. */
export const noopLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};

/** A logger that keeps every line in memory, for tests that assert on what was logged. */
export class MemoryLogger implements Logger {
  readonly lines: { level: 'debug' | 'info' | 'warn' | 'error'; msg: string; fields: LogFields }[] = [];
  debug(msg: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'debug', msg, fields });
  }
  info(msg: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'info', msg, fields });
  }
  warn(msg: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'warn', msg, fields });
  }
  error(msg: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'error', msg, fields });
  }
}
