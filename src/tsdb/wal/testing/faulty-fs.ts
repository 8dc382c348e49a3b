/**
 * A `WalFs` over the real file system that fails, tears or slows chosen operations: a full disk
 * (ENOSPC), an I/O error (EIO), a write cut short, an fsync that takes long (on its own clock)
 * or that fails and loses the unsynced pages, as Linux may after a writeback error. Not part of
 * the build.
 */
import * as fs from 'node:fs';
import { nodeWalFs, type WalFs } from '../wal-fs.js';

/** The operations a rule can target; `fsync` covers fsync and fdatasync. */
export type FaultOp = 'open' | 'write' | 'fsync' | 'ftruncate' | 'close';

/** One injected fault. */
export interface FaultRule {
  op: FaultOp;
  /** Only calls on a path containing this string; default every path. */
  path?: string;
  /** The errno code to throw; default none (a delay alone). */
  code?: 'ENOSPC' | 'EIO';
  /** For `write`: bytes really written before the error (a torn write). */
  partialBytes?: number;
  /** Milliseconds the call takes on `now()` (a slow fsync). */
  delayMs?: number;
  /**
   * For `fsync` with a `code`: the bytes written since the file's last successful fsync read
   * back as zeros afterwards, as when the kernel dropped the dirty pages of a failed writeback.
   */
  loseUnsynced?: boolean;
  /** Matching calls to let through before the fault; default 0. */
  after?: number;
  /** Matching calls that fault; default every one until `clear`. */
  times?: number;
}

interface ArmedRule extends FaultRule {
  seen: number;
  hits: number;
}

/** Builds an error shaped like the one `node:fs` throws. */
export function errnoError(code: 'ENOSPC' | 'EIO', syscall: string, file: string): NodeJS.ErrnoException {
  const text = code === 'ENOSPC' ? 'no space left on device' : 'i/o error';
  return Object.assign(new Error(`${code}: ${text} (injected), ${syscall} '${file}'`), { code, syscall, path: file, errno: code === 'ENOSPC' ? -28 : -5 });
}

/** The fault-injecting port. Faults come from rules (`inject`) and from a free-space budget (`diskFull`). */
export class FaultyFs implements WalFs {
  private rules: ArmedRule[] = [];
  private readonly paths = new Map<number, string>();
  private readonly synced = new Map<number, number>();
  private freeBytes = Infinity;
  private clockMs = 0;
  /** Calls per operation, faulted or not. */
  readonly calls: Record<FaultOp, number> = { open: 0, write: 0, fsync: 0, ftruncate: 0, close: 0 };
  /** The clock slow calls advance; give it to the WAL as `now`. */
  readonly now = (): number => this.clockMs;

  /** Arms a fault; returns `this` for chaining. */
  inject(rule: FaultRule): this {
    this.rules.push({ ...rule, seen: 0, hits: 0 });
    return this;
  }

  /** Leaves `bytes` of free space for writes (0: the disk is full) until `freeSpace`. */
  diskFull(bytes = 0): this {
    this.freeBytes = bytes;
    return this;
  }

  /** Space returns. */
  freeSpace(): this {
    this.freeBytes = Infinity;
    return this;
  }

  /** Disarms every rule and gives the space back. */
  clear(): void {
    this.rules = [];
    this.freeSpace();
  }

  openSync(file: string, flags: string): number {
    this.calls.open++;
    this.fault('open', file);
    if (flags.includes('x') && this.freeBytes <= 0) throw errnoError('ENOSPC', 'open', file);
    const fd = nodeWalFs.openSync(file, flags);
    this.paths.set(fd, file);
    this.synced.set(fd, fs.fstatSync(fd).size);
    return fd;
  }

  writeSync(fd: number, bytes: Uint8Array, offset: number, length: number): number {
    this.calls.write++;
    const file = this.pathOf(fd);
    const rule = this.match('write', file);
    if (rule?.code !== undefined) {
      const n = Math.min(rule.partialBytes ?? 0, length);
      if (n > 0) nodeWalFs.writeSync(fd, bytes, offset, n);
      throw errnoError(rule.code, 'write', file);
    }
    if (this.freeBytes <= 0) throw errnoError('ENOSPC', 'write', file);
    // Like a real file system: what fits is written (a short write), the next call fails.
    const n = nodeWalFs.writeSync(fd, bytes, offset, Math.min(length, this.freeBytes));
    this.freeBytes -= n;
    return n;
  }

  fdatasyncSync(fd: number): void {
    this.sync(fd, () => nodeWalFs.fdatasyncSync(fd));
  }

  fsyncSync(fd: number): void {
    this.sync(fd, () => nodeWalFs.fsyncSync(fd));
  }

  ftruncateSync(fd: number, length: number): void {
    this.calls.ftruncate++;
    this.fault('ftruncate', this.pathOf(fd));
    nodeWalFs.ftruncateSync(fd, length);
  }

  closeSync(fd: number): void {
    this.calls.close++;
    const file = this.pathOf(fd);
    this.paths.delete(fd);
    this.synced.delete(fd);
    try {
      this.fault('close', file);
    } finally {
      nodeWalFs.closeSync(fd); // the descriptor is gone even when close reports an error
    }
  }

  private sync(fd: number, real: () => void): void {
    this.calls.fsync++;
    const file = this.pathOf(fd);
    const rule = this.match('fsync', file);
    if (rule?.code !== undefined) {
      if (rule.loseUnsynced === true) this.zeroUnsynced(fd);
      throw errnoError(rule.code, 'fsync', file);
    }
    real();
    if (fs.fstatSync(fd).isFile()) this.synced.set(fd, fs.fstatSync(fd).size);
  }

  /** Overwrites the bytes after the last successful fsync with zeros. */
  private zeroUnsynced(fd: number): void {
    const from = this.synced.get(fd) ?? 0;
    const file = this.pathOf(fd);
    const size = fs.statSync(file).size;
    if (size <= from) return;
    const w = fs.openSync(file, 'r+');
    try {
      fs.writeSync(w, new Uint8Array(size - from), 0, size - from, from);
    } finally {
      fs.closeSync(w);
    }
  }

  private fault(op: FaultOp, file: string): void {
    const rule = this.match(op, file);
    if (rule?.code !== undefined) throw errnoError(rule.code, op, file);
  }

  /** The rule that fires for this call (advancing the clock for a delay), or undefined. */
  private match(op: FaultOp, file: string): ArmedRule | undefined {
    for (const r of this.rules) {
      if (r.op !== op || (r.path !== undefined && !file.includes(r.path))) continue;
      r.seen++;
      if (r.seen <= (r.after ?? 0) || r.hits >= (r.times ?? Infinity)) continue;
      r.hits++;
      this.clockMs += r.delayMs ?? 0;
      return r;
    }
    return undefined;
  }

  private pathOf(fd: number): string {
    return this.paths.get(fd) ?? `fd ${fd}`;
  }
}
