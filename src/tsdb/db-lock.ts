import fs from 'node:fs';
import path from 'node:path';
import { StorageError, StorageErrorCode } from '../storage/index.js';

/**
 * The data directory's lock: a `lock` file holding the owner's process id. Opening a directory
 * whose lock names a live process fails, so two processes never write one WAL; a lock left by a
 * process that died (kill -9) is taken over. Node has no flock(2), hence the pid check; a pid
 * reused by an unrelated process after a crash makes the open fail until the file is removed,
 * which errs on the safe side.
 */
export class DirLock {
  private constructor(private readonly file: string) {}

  /** Takes the lock of `dir` or throws `ERR_STORAGE_UNAVAILABLE` naming the process holding it. */
  static acquire(dir: string, pid = process.pid): DirLock {
    const file = path.join(dir, 'lock');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.writeFileSync(file, `${pid}\n`, { flag: 'wx' });
        return new DirLock(file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const owner = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by someone else
  }
}
