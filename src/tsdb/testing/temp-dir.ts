import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Creates a fresh temporary directory and returns it with a remover (for tests). */
export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `infersight-${prefix}-`));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
