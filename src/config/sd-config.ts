import path from 'node:path';
import { Labels, type DurationMs } from '../model/index.js';
import { isValidLabelName } from './relabel.js';
import type { YamlNode } from './yaml-reader.js';

/** A group of targets with common labels, as service discovery hands them over (Prometheus' `targetgroup.Group`). */
export interface TargetGroup {
  /** The targets' own labels; each has `__address__`. */
  readonly targets: readonly Labels[];
  /** Labels every target of the group gets unless it has its own. */
  readonly labels: Labels;
  /** Identifies the group within its provider (`0`, `file.json:2`); a later group with the same source replaces it. */
  readonly source: string;
}

/** One `file_sd_configs` entry. */
export interface FileSdConfig {
  /** Patterns, resolved against the config file's directory; `*` only in the last path element. */
  readonly files: readonly string[];
  readonly refreshIntervalMs: DurationMs;
}

/** Prometheus' check on a static target: a URL is not an address. */
export function checkTargetAddress(address: string): string | undefined {
  return address.includes('/') ? `${JSON.stringify(address)} is not a valid hostname` : undefined;
}

/** Reads `static_configs`; with `checkAddresses` (no relabel_configs), URL-looking targets fail as in Prometheus. */
export function parseStaticConfigs(node: YamlNode, checkAddresses: boolean): Omit<TargetGroup, 'source'>[] {
  return node.list().map((item) => {
    const f = item.struct('targetgroup.Group', ['targets', 'labels']);
    const targets = (f.targets?.list() ?? []).map((t) => {
      const address = t.string();
      const bad = checkAddresses ? checkTargetAddress(address) : undefined;
      if (bad !== undefined) t.fail(bad);
      return Labels.from({ __address__: address });
    });
    const flat: string[] = [];
    for (const [name, value] of f.labels?.entries() ?? []) {
      if (!isValidLabelName(name)) value.fail(`${JSON.stringify(name)} is not a valid label name`);
      flat.push(name, value.string());
    }
    return { targets, labels: Labels.fromPairs(flat) };
  });
}

/** Prometheus' `patFileSDName`: a `*` only in the last element, and a .json/.yml/.yaml extension. */
const FILE_SD_NAME = /^[^*]*(\*[^/]*)?\.(json|yml|yaml|JSON|YML|YAML)$/;

/** Reads `file_sd_configs` (default refresh_interval 5m). */
export function parseFileSdConfigs(node: YamlNode, dir: string): FileSdConfig[] {
  return node.list().map((item) => {
    const f = item.struct('file.SDConfig', ['files', 'refresh_interval']);
    const files = (f.files?.list() ?? []).map((n) => {
      const name = n.string();
      if (!FILE_SD_NAME.test(name)) n.fail(`path name ${JSON.stringify(name)} is not valid for file discovery`);
      return path.isAbsolute(name) ? name : path.join(dir, name);
    });
    if (files.length === 0) item.fail('file service discovery config must contain at least one path name');
    return { files, refreshIntervalMs: f.refresh_interval?.duration() || 300_000 };
  });
}

const SIZE_UNITS: Record<string, number> = {
  B: 1, KB: 1024, KiB: 1024, MB: 1024 ** 2, MiB: 1024 ** 2, GB: 1024 ** 3, GiB: 1024 ** 3, TB: 1024 ** 4, TiB: 1024 ** 4, PB: 1024 ** 5, PiB: 1024 ** 5,
};

/** `body_size_limit` in Prometheus' base-2 units (`10MB` is 10 MiB, as Go's `units.Base2Bytes`); 0 is no limit. */
export function parseBodySize(node: YamlNode): number {
  const text = node.string();
  if (text === '0' || text === '') return 0;
  const re = /(\d+)(KiB|MiB|GiB|TiB|PiB|KB|MB|GB|TB|PB|B)/y;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    total += Number(m[1]) * SIZE_UNITS[m[2]];
    consumed = re.lastIndex;
  }
  if (consumed !== text.length || consumed === 0) node.fail(`invalid body_size_limit ${JSON.stringify(text)}: want a size such as 512KB or 10MB (base 2, as Prometheus)`);
  return total;
}

/**
 * Parses the content of a file_sd file (a list of `{targets, labels}`), as Prometheus: JSON for
 * `.json`, strict YAML otherwise. Every group gets `__meta_filepath` and the source `file:index`.
 * Throws an `Error` with the reason.
 */
export function parseFileSdContent(file: string, text: string, parseYaml: (text: string) => YamlNode): TargetGroup[] {
  const groups: { targets: string[]; labels: [string, string][] }[] = [];
  if (path.extname(file).toLowerCase() === '.json') {
    const data = JSON.parse(text) as unknown;
    if (!Array.isArray(data)) throw new Error('json: cannot unmarshal into []*targetgroup.Group: want a list of target groups');
    for (const g of data as unknown[]) {
      if (g === null || typeof g !== 'object') throw new Error('nil target group item found');
      const { targets = [], labels = {} } = g as { targets?: unknown; labels?: unknown };
      if (!Array.isArray(targets) || !targets.every((t) => typeof t === 'string')) throw new Error('json: "targets" must be a list of strings');
      if (labels === null || typeof labels !== 'object' || !Object.values(labels).every((v) => typeof v === 'string')) {
        throw new Error('json: "labels" must be a map of strings');
      }
      groups.push({ targets, labels: Object.entries(labels as Record<string, string>) });
    }
  } else {
    for (const item of parseYaml(text).list()) {
      if (item.isNull()) throw new Error('nil target group item found');
      const f = item.struct('targetgroup.Group', ['targets', 'labels']);
      groups.push({ targets: f.targets?.stringList() ?? [], labels: (f.labels?.entries() ?? []).map(([n, v]) => [n, v.string()]) });
    }
  }
  return groups.map((g, i) => {
    const flat: string[] = [];
    for (const [name, value] of g.labels) {
      if (!isValidLabelName(name)) throw new Error(`${JSON.stringify(name)} is not a valid label name`);
      flat.push(name, value);
    }
    flat.push('__meta_filepath', file);
    return { targets: g.targets.map((t) => Labels.from({ __address__: t })), labels: Labels.fromPairs(flat), source: `${file}:${i}` };
  });
}
