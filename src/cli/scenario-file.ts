import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ScenarioFileError, parseScenarioSpec, type ScenarioSpec } from '../sim/index.js';
import { UsageError } from './args.js';

/**
 * Reads `--scenario-file FILE` (a ScenarioSpec in JSON, docs/sim.md) for `demo` and `sim`. A file
 * that cannot be read or is not a valid scenario is a usage error naming the file and the field;
 * naming `--scenario` too is refused, since only one can say what runs.
 */
export async function readScenarioFile(file: string, argv: readonly string[]): Promise<ScenarioSpec> {
  if (argv.some((a) => a === '--scenario' || a.startsWith('--scenario='))) throw new UsageError('--scenario and --scenario-file exclude each other');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--scenario-file: cannot read ${JSON.stringify(file)}: ${(e as Error).message}`);
  }
  try {
    return parseScenarioSpec(text, path.basename(file).replace(/\.json$/i, '').replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 63) || 'scenario-file');
  } catch (e) {
    if (e instanceof ScenarioFileError) throw new UsageError(`--scenario-file ${file}: ${e.message}`);
    throw e;
  }
}
