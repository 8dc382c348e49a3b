import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../model/index.js';
import { parseFileSdContent, type FileSdConfig, type TargetGroup } from './sd-config.js';
import type { Timers } from '../model/index.js';
import { parseYamlDocument } from './yaml-reader.js';

/** The file system as file_sd reads it; injected so tests can use a map. */
export interface FileSdFs {
  readFile(file: string): Promise<string>;
  /** The names in `dir`; rejects when it cannot be read. */
  readdir(dir: string): Promise<string[]>;
}

/** Calls `onChange` whenever something in one of `dirs` changes; returns a function that stops watching. */
export type WatchDirs = (dirs: readonly string[], onChange: () => void) => () => void;

/** The real file system. */
export const nodeFileSdFs: FileSdFs = {
  readFile: (file) => fsp.readFile(file, 'utf8'),
  readdir: (dir) => fsp.readdir(dir),
};

/** Watches directories with `fs.watch`; directories that cannot be watched are skipped (the refresh interval still applies). */
export const nodeWatchDirs: WatchDirs = (dirs, onChange) => {
  const watchers: fs.FSWatcher[] = [];
  for (const dir of new Set(dirs)) {
    try {
      const w = fs.watch(dir, { persistent: false }, () => onChange());
      w.on('error', () => w.close());
      watchers.push(w);
    } catch {
      // A missing directory: the periodic refresh picks it up once it exists.
    }
  }
  return () => {
    for (const w of watchers) w.close();
  };
};

/** Go's `filepath.Match` for one path element: `*`, `?`, `[...]` (with `^` negation), `\` escapes. */
export function globElementRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '\\' && i + 1 < pattern.length) re += '\\' + pattern[++i];
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) {
        re += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, end);
      if (body.startsWith('^')) body = '^' + body.slice(1).replace(/[\\\]]/g, '\\$&');
      else body = body.replace(/[\\\]^]/g, '\\$&');
      re += `[${body}]`;
      i = end;
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'u');
}

const hasMeta = (s: string): boolean => /[*?[\\]/.test(s);

/**
 * file_sd: reads target groups from JSON/YAML files matching the configured patterns, again on
 * every refresh interval and whenever a watched directory changes (Prometheus' file discovery).
 * A file that fails to read or parse keeps its last good groups; a file that disappears loses them.
 */
export class FileSdProvider {
  private readonly lastGood = new Map<string, TargetGroup[]>();
  private cancelTimer: (() => void) | undefined;
  private unwatch: (() => void) | undefined;
  private lastSent = '';
  private stopped = false;

  constructor(
    private readonly cfg: FileSdConfig,
    private readonly deps: { readonly fs: FileSdFs; readonly timers: Timers; readonly logger: Logger; readonly watch: WatchDirs },
  ) {}

  private async listFiles(): Promise<string[]> {
    const out = new Set<string>();
    for (const pattern of this.cfg.files) {
      const dir = path.dirname(pattern);
      const base = path.basename(pattern);
      if (!hasMeta(base)) {
        out.add(pattern);
        continue;
      }
      const re = globElementRegExp(base);
      try {
        for (const name of await this.deps.fs.readdir(dir)) if (re.test(name)) out.add(path.join(dir, name));
      } catch {
        // No such directory: no files.
      }
    }
    return [...out].sort();
  }

  /** Reads every matching file once and returns all groups, files in sorted order. */
  async refresh(): Promise<TargetGroup[]> {
    const files = await this.listFiles();
    const seen = new Set<string>();
    for (const file of files) {
      let text: string;
      try {
        text = await this.deps.fs.readFile(file);
      } catch (e) {
        // A literal path that does not exist matches nothing, as Go's Glob.
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
          this.deps.logger.error('file_sd: reading file failed', { path: file, err: (e as Error).message });
          seen.add(file);
        }
        continue;
      }
      seen.add(file);
      try {
        this.lastGood.set(file, parseFileSdContent(file, text, parseYamlDocument));
      } catch (e) {
        this.deps.logger.error('file_sd: reading file failed', { path: file, err: (e as Error).message });
      }
    }
    for (const file of [...this.lastGood.keys()]) if (!seen.has(file)) this.lastGood.delete(file);
    return [...this.lastGood.keys()].sort().flatMap((f) => this.lastGood.get(f) ?? []);
  }

  /**
   * Starts refreshing: `onUpdate` gets the full group list whenever it differs from the last one
   * sent (after `initial`, which the caller already has from `refresh`).
   */
  start(initial: readonly TargetGroup[], onUpdate: (groups: TargetGroup[]) => void): void {
    this.lastSent = fingerprint(initial);
    const run = () => {
      void this.refresh().then(
        (groups) => {
          if (this.stopped) return;
          const fp = fingerprint(groups);
          if (fp === this.lastSent) return;
          this.lastSent = fp;
          onUpdate(groups);
        },
        (e: unknown) => this.deps.logger.error('file_sd: refresh failed', { err: String(e) }),
      );
    };
    const tick = () => {
      if (this.stopped) return;
      run();
      this.cancelTimer = this.deps.timers.setTimeout(tick, this.cfg.refreshIntervalMs);
    };
    this.cancelTimer = this.deps.timers.setTimeout(tick, this.cfg.refreshIntervalMs);
    this.unwatch = this.deps.watch(
      this.cfg.files.map((f) => path.dirname(f)),
      () => {
        if (!this.stopped) run();
      },
    );
  }

  /** Stops refreshing and watching. */
  stop(): void {
    this.stopped = true;
    this.cancelTimer?.();
    this.unwatch?.();
  }
}

function fingerprint(groups: readonly TargetGroup[]): string {
  return JSON.stringify(groups.map((g) => [g.source, g.labels.flat(), g.targets.map((t) => t.flat())]));
}
