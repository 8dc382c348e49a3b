import { MemoryLogger } from '../../../model/index.js';
import { parseScrapeConfigFile } from '../config.js';
import type { FileSdFs, WatchDirs } from '../../../config/index.js';
import { ScrapeManager } from '../manager.js';
import type { Target } from '../target.js';
import { FakeFetch } from './fake-fetch.js';
import { FakeTimers } from '../../../model/testing/fake-timers.js';
import { MemoryStorage } from '../../../storage/testing/index.js';

/** A start time aligned to a minute, so offsets are easy to reason about. */
export const T0 = 1_700_000_040_000;

/** A file system in a map, with a watch port the test triggers by hand. */
export class FakeFs implements FileSdFs {
  readonly files = new Map<string, string>();
  private readonly watchers = new Set<() => void>();

  readFile(file: string): Promise<string> {
    const text = this.files.get(file);
    if (text === undefined) return Promise.reject(Object.assign(new Error(`open ${file}: no such file or directory`), { code: 'ENOENT' }));
    return Promise.resolve(text);
  }

  readdir(dir: string): Promise<string[]> {
    const names = [...this.files.keys()].filter((f) => f.startsWith(dir + '/') && !f.slice(dir.length + 1).includes('/')).map((f) => f.slice(dir.length + 1));
    return Promise.resolve(names);
  }

  readonly watch: WatchDirs = (_dirs, onChange) => {
    this.watchers.add(onChange);
    return () => this.watchers.delete(onChange);
  };

  /** Simulates a change notification from the OS. */
  notify(): void {
    for (const w of this.watchers) w();
  }
}

/** A scrape manager over fakes: clock and timers, fetch, storage, file system. */
export interface Harness {
  readonly timers: FakeTimers;
  readonly fetch: FakeFetch;
  readonly store: MemoryStorage;
  readonly fs: FakeFs;
  readonly logger: MemoryLogger;
  readonly manager: ScrapeManager;
  /** Applies a YAML configuration. */
  apply(yaml: string): Promise<void>;
  /** The active targets of every pool, by scrape URL. */
  target(url: string): Target;
}

/** Builds a harness; nothing is scraped until the test advances the timers. */
export function harness(): Harness {
  const timers = new FakeTimers(T0);
  const fetch = new FakeFetch(timers);
  const store = new MemoryStorage();
  const fs = new FakeFs();
  const logger = new MemoryLogger();
  const manager = new ScrapeManager({
    appendable: store,
    logger,
    clock: timers.clock,
    timers,
    fetch: fetch.fetch,
    readFile: (f) => fs.readFile(f),
    fileSdFs: fs,
    watchDirs: fs.watch,
    hostname: 'test',
  });
  return {
    timers,
    fetch,
    store,
    fs,
    logger,
    manager,
    apply: (yaml) => manager.applyConfig(parseScrapeConfigFile(yaml, '/cfg')),
    target: (url) => {
      for (const [, pool] of manager.pools()) for (const t of pool.activeTargets()) if (t.url() === url) return t;
      throw new Error(`no active target ${url}`);
    },
  };
}
