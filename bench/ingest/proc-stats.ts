/**
 * CPU time and memory of another process, read from Linux' /proc (for benchmarks that measure a
 * receiver running as a child process). Elsewhere every reading is null.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks per second (`getconf CLK_TCK`, 100 on every common Linux). */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    const n = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim());
    ticksPerSecond = Number.isFinite(n) && n > 0 ? n : 100;
  }
  return ticksPerSecond;
}

/** User plus system CPU seconds of process `pid`, all its threads (`/proc/<pid>/stat` utime + stime). */
export function cpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks(); // fields 14 and 15
  } catch {
    return null;
  }
}

/** Resident memory of process `pid` now (`VmRSS`) and at its peak (`VmHWM`), in bytes. */
export function memoryBytes(pid: number | undefined): { rss: number | null; peak: number | null } {
  if (pid === undefined) return { rss: null, peak: null };
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string): number | null => {
      const m = new RegExp(`${key}:\\s+(\\d+) kB`).exec(status);
      return m === null ? null : Number(m[1]) * 1024;
    };
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return { rss: null, peak: null };
  }
}
