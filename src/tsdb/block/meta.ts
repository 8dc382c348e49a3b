/**
 * The block's `meta.json` (docs/formats/block.md): its type, encoder and validating decoder.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UnixMs } from '../../model/index.js';
import { META_FILE, META_VERSION, corruption } from './format.js';
import { isBlockId } from './ulid.js';

/** What a block holds, as stored in its `meta.json`. */
export interface BlockMeta {
  /** The meta format version (`1`). */
  readonly version: number;
  /** The block id, equal to the directory name. */
  readonly ulid: string;
  /** Start of the half-open time range `[minTimeMs, maxTimeMs)` the block covers. */
  readonly minTimeMs: UnixMs;
  /** End (exclusive) of the block's time range. */
  readonly maxTimeMs: UnixMs;
  /** Counts of what the block holds. */
  readonly stats: { readonly numSeries: number; readonly numChunks: number; readonly numSamples: number };
  /** Compaction lineage: level 1 for blocks cut from the head; sources are level-1 block ids. */
  readonly compaction: { readonly level: number; readonly sources: readonly string[] };
}

/** Serialises a meta the way every block stores it: two-space JSON with a trailing newline. */
export function encodeMeta(meta: BlockMeta): string {
  const ordered: BlockMeta = {
    version: meta.version,
    ulid: meta.ulid,
    minTimeMs: meta.minTimeMs,
    maxTimeMs: meta.maxTimeMs,
    stats: { numSeries: meta.stats.numSeries, numChunks: meta.stats.numChunks, numSamples: meta.stats.numSamples },
    compaction: { level: meta.compaction.level, sources: [...meta.compaction.sources] },
  };
  return JSON.stringify(ordered, null, 2) + '\n';
}

/**
 * Reads and validates `<dir>/meta.json`. Throws `ERR_CORRUPTION` naming the file when it is
 * missing, unreadable, not JSON, of another version, or inconsistent with `expectedId`.
 */
export function readMeta(dir: string, expectedId: string): BlockMeta {
  const file = join(dir, META_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw corruption(file, 'cannot read block meta', err);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw corruption(file, 'meta is not valid JSON', err);
  }
  return validateMeta(file, raw, expectedId);
}

function validateMeta(file: string, raw: unknown, expectedId: string): BlockMeta {
  const fail = (what: string): never => {
    throw corruption(file, what);
  };
  if (!isRecord(raw)) return fail('meta is not an object');
  if (raw.version !== META_VERSION) return fail(`unsupported meta version ${String(raw.version)}`);
  const ulid = raw.ulid;
  if (typeof ulid !== 'string' || !isBlockId(ulid)) return fail('meta has no valid ulid');
  if (ulid !== expectedId) return fail(`meta ulid ${ulid} differs from the directory name ${expectedId}`);
  const minTimeMs = raw.minTimeMs;
  const maxTimeMs = raw.maxTimeMs;
  if (!Number.isSafeInteger(minTimeMs) || !Number.isSafeInteger(maxTimeMs)) return fail('meta times are not integers');
  if ((minTimeMs as number) >= (maxTimeMs as number)) return fail('meta minTimeMs is not below maxTimeMs');
  const stats = raw.stats;
  if (!isRecord(stats)) return fail('meta has no stats');
  const counts = [stats.numSeries, stats.numChunks, stats.numSamples];
  if (!counts.every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) return fail('meta stats are not counts');
  const compaction = raw.compaction;
  if (!isRecord(compaction)) return fail('meta has no compaction');
  const level = compaction.level;
  const sources = compaction.sources;
  if (!Number.isSafeInteger(level) || (level as number) < 1) return fail('meta compaction level is invalid');
  if (!Array.isArray(sources) || !sources.every((s) => typeof s === 'string' && isBlockId(s))) {
    return fail('meta compaction sources are invalid');
  }
  return {
    version: META_VERSION,
    ulid,
    minTimeMs: minTimeMs as number,
    maxTimeMs: maxTimeMs as number,
    stats: { numSeries: counts[0] as number, numChunks: counts[1] as number, numSamples: counts[2] as number },
    compaction: { level: level as number, sources: sources as string[] },
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
