import fs from 'node:fs';
import path from 'node:path';
import { StorageError, StorageErrorCode } from '../storage/index.js';

/**
 * The data directory's lock: a `lock` file holding the owner's process id and, on Linux, the
 * process' start time (`<pid> <starttime>\n`, the 22nd field of `/proc/<pid>/stat`, in clock
 * ticks since boot). Opening a directory whose lock names a live process fails, so two processes
 * never write one WAL. Node has no flock(2), whose lock the kernel would drop at death, so a lock
 * is taken over when its owner is gone:
 *
 * - no such process (it died: kill -9, a crash);
 * - a zombie (`Z`) or dead (`X`) process: it has exited and only waits to be reaped. After
 *   `kill -9` of a whole process tree the server can stay a zombie for a while (its parent died
 *   in the same kill and PID 1 reaps it later), and a supervisor restarting at once must win;
 * - a process whose start time differs from the one recorded: the pid was reused by another
 *   process after the owner died.
 *
 * A lock without a start time (older versions, or no /proc) falls back to `kill(pid, 0)`.
 */
export class DirLock {
  private constructor(private readonly file: string) {}

  /** Takes the lock of `dir` or throws `ERR_STORAGE_UNAVAILABLE` naming the process holding it. */
  static acquire(dir: string, pid = process.pid, proc: ProcessTable = linuxProcessTable): DirLock {
    const file = path.join(dir, 'lock');
    const start = proc.startTime(pid);
    const body = start === undefined ? `${pid}\n` : `${pid} ${start}\n`;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.writeFileSync(file, body, { flag: 'wx' });
        return new DirLock(file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const [ownerText, startText] = fs.readFileSync(file, 'utf8').trim().split(/\s+/);
      const owner = Number.parseInt(ownerText ?? '', 10);
      if (Number.isInteger(owner) && owner > 0 && ownsLock(proc, owner, startText)) {
        throw new StorageError(StorageErrorCode.UNAVAILABLE, `data directory ${dir} is in use by process ${owner} (${file})`);
      }
      fs.rmSync(file, { force: true }); // a dead owner's lock
    }
    throw new StorageError(StorageErrorCode.UNAVAILABLE, `could not lock data directory ${dir}`);
  }

  /** Releases the lock. Idempotent. */
  release(): void {
    fs.rmSync(this.file, { force: true });
  }
}

/** What the lock needs to know of a process; `linuxProcessTable` reads /proc, tests pass their own. */
export interface ProcessTable {
  /** The process' state letter (`R`, `S`, `Z`, ...), null when there is no such process, undefined when unknown here. */
  state(pid: number): string | null | undefined;
  /** The process' start time as recorded in the lock, undefined when unknown. */
  startTime(pid: number): string | undefined;
  /** `kill(pid, 0)`: true when a process with this pid exists. */
  exists(pid: number): boolean;
}

function ownsLock(proc: ProcessTable, pid: number, recordedStart: string | undefined): boolean {
  const state = proc.state(pid);
  if (state === null) return false;
  if (state === undefined) return proc.exists(pid);
  if (state === 'Z' || state === 'X' || state === 'x') return false;
  return recordedStart === undefined || proc.startTime(pid) === recordedStart;
}

/** Fields of `/proc/<pid>/stat` after the command (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | null | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ESRCH') return fs.existsSync('/proc/self/stat') ? null : undefined;
    return undefined;
  }
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** The process table of Linux' /proc (undefined answers elsewhere, so the lock falls back to kill(0)). */
export const linuxProcessTable: ProcessTable = {
  state: (pid) => {
    const f = statFields(pid);
    return f === null || f === undefined ? f : f[0];
  },
  // Field 22 of stat is the 20th after the command: fields 3.. start at index 0.
  startTime: (pid) => statFields(pid)?.[19],
  exists: (pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by someone else
    }
  },
};
