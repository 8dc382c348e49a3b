/**
 * What the speed banner says, from the server's flags (`/api/v1/status/flags`): `infersight demo
 * --speed N` runs its simulated fleet N times as fast as the clock while samples carry wall-clock
 * timestamps, so every rate on the charts is per real second. docs/design/virtual-time.md.
 */

/** The banner's text for these flags; null when rates need no explanation (speed 1, or no simulator). */
export function speedNotice(flags: Readonly<Record<string, string>>): string | null {
  const speed = Number(flags.speed);
  if (flags.speed === undefined || !Number.isFinite(speed) || speed === 1) return null;
  const history = flags.history !== undefined && flags.history !== '0' ? ' History replayed at start runs at 1×.' : '';
  return (
    `Simulated fleet at ${speed}× speed: rates are per real second, so requests/s and tokens/s read ${speed}× what the fleet serves per simulated second. ` +
    `Throughput vs benchmark compares like with like (the benchmark is stated per real second too).${history}`
  );
}
