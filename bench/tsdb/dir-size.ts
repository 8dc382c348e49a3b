import fs from 'node:fs';
import path from 'node:path';

/** Sum of the sizes of the regular files under `dir`, recursively (benchmarks' disk numbers). */
export function dirBytes(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) n += fs.statSync(path.join(e.parentPath, e.name)).size;
  }
  return n;
}
