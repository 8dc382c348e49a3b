import type { RunningSimulation } from '../start.js';

/**
 * Advances a manual-mode simulation one virtual second per event-loop turn until `p` settles: a
 * request to a simulated engine only progresses while virtual time moves. Gives up (returning
 * `p` unsettled) after 20,000 virtual seconds.
 */
export async function driveUntil<T>(run: RunningSimulation, p: Promise<T>): Promise<T> {
  let done = false;
  const watched = p.finally(() => (done = true));
  for (let i = 0; i < 20_000 && !done; i++) {
    await run.advanceTo(run.simulation.nowMs + 1000);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return watched;
}
