import { parseListenAddress } from '../http/index.js';

/**
 * A listener that could not start (address busy, not allowed, not on this machine), told as one
 * line that names the flag or setting that chose the address: `main` prints it without a stack
 * and exits with status 1. A stack trace would only show Node's internals, not what to change.
 */
export class ListenError extends Error {}

/** Why `listen` failed, in words, by Node's error code; other codes are not a listen problem of the user's. */
const REASONS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'address already in use (another process listens there)',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'address not available on this machine',
};

/**
 * The `ListenError` for `e` when it is a failed `listen` (Node sets `syscall`, `code` and `port`
 * on it), naming every entry of `flags` (`'--listen' → '127.0.0.1:9300'`; undefined: not set)
 * whose port is the failed one; undefined for any other error. Port 0 (any free port) never fails
 * this way, so it never matches.
 */
export function listenError(e: unknown, flags: Readonly<Record<string, string | undefined>>): ListenError | undefined {
  const err = e as Partial<NodeJS.ErrnoException & { port: number; address: string }> | null;
  const reason = err?.syscall === 'listen' && err.code !== undefined ? REASONS[err.code] : undefined;
  if (reason === undefined || err === null) return undefined;
  const named = Object.entries(flags).filter(([, address]) => {
    if (address === undefined) return false;
    try {
      const { port } = parseListenAddress(address);
      return port !== 0 && port === err.port;
    } catch {
      return false;
    }
  });
  const where = named[0]?.[1] ?? `${err.address ?? ''}:${err.port ?? ''}`;
  if (named.length === 0) return new ListenError(`cannot listen on ${where}: ${reason}`);
  const names = named.map(([flag]) => flag);
  const hint = names[0].startsWith('--') ? `; choose another with ${names[0]} HOST:PORT` : '';
  return new ListenError(`cannot listen on ${where} (${names.join(', ')}): ${reason}${hint}`);
}

/**
 * A rejection handler for a start (`startServer(...).catch(rethrowListenError(flags))`): a failed
 * `listen` is thrown again as a `ListenError` naming the flag (see `listenError`); any other error
 * unchanged.
 */
export function rethrowListenError(flags: Readonly<Record<string, string | undefined>>): (e: unknown) => never {
  return (e) => {
    throw listenError(e, flags) ?? e;
  };
}
