import type { Logger } from '../model/index.js';

/**
 * Waits for SIGTERM or SIGINT, then runs `close` and resolves with the exit status: 0 after a
 * clean shutdown, 1 when closing failed (logged). Every long-running command ends this way.
 */
export function untilSignal(close: () => Promise<void>, logger: Logger): Promise<number> {
  return new Promise<number>((resolve) => {
    const stop = (signal: string): void => {
      logger.info('shutting down', { signal });
      close().then(
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
