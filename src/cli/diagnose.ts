import { parseArgs } from 'node:util';
import { HttpDiagnosisClient, isQueryClientError, type CauseWire, type DiagnosisClient, type DiagnosisData } from '../query/index.js';
import { parseTime } from '../server/index.js';
import { UsageError } from './args.js';

/** Usage text of `infersight diagnose`. */
export const DIAGNOSE_USAGE = `Usage: infersight diagnose --server URL [flags]

Asks a running Infersight (serve or demo) what caused a latency or throughput regression, and
prints the ranked causes with their evidence and the causes ruled out (GET /api/v1/diagnosis).

Flags:
  --server URL     the server (http://127.0.0.1:9300)
  --time T         when: Unix seconds or RFC 3339 (default: the server's now)
  --match SEL      a series selector narrowing the fleet ('{component="llama"}'); repeatable
  --symptom S      ttft, itl, e2e, tps or errors (default: the one that regressed most)
  --json           print the API's data as JSON instead of a table
`;

/** Where `diagnoseCommand` writes, and the client it asks (tests pass their own). */
export interface DiagnoseIo {
  stdout(text: string): void;
  stderr(text: string): void;
  client?: (url: string) => DiagnosisClient;
}

const processIo: DiagnoseIo = {
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
};

/** Unix seconds as RFC 3339 to the second. */
const iso = (s: number): string => new Date(s * 1000).toISOString().replace('.000Z', 'Z');

/** A number of evidence as the table writes it: up to 4 significant digits, `-` for no data. */
const num = (v: number | null): string => (v === null ? '-' : String(Number(v.toPrecision(4))));

const scopeText = (scope: Readonly<Record<string, string>>): string => Object.entries(scope).map(([k, v]) => `${k}=${v}`).join(' ') || 'fleet';

/** Pads the columns of `rows` to their widest cell (the last column is not padded). */
function columns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd());
}

/**
 * The table `infersight diagnose` prints: a heading with the time, one row per cause (rank, cause,
 * confidence, scope, onset, summary) followed by its evidence lines, then the causes ruled out.
 */
export function formatDiagnosis(d: DiagnosisData, symptom?: string): string {
  const lines = [`Diagnosis at ${iso(d.time)}${symptom === undefined ? '' : ` (symptom ${symptom})`}`, ''];
  const rows: string[][] = [['RANK', 'CAUSE', 'CONFIDENCE', 'SCOPE', 'ONSET', 'SUMMARY']];
  d.causes.forEach((c: CauseWire, i) => rows.push([String(i + 1), c.cause, c.confidence.toFixed(2), scopeText(c.scope), c.onset === null ? '-' : iso(c.onset), c.summary]));
  const table = columns(rows);
  lines.push(table[0]);
  d.causes.forEach((c, i) => {
    lines.push(table[i + 1]);
    for (const e of c.evidence) lines.push(`      evidence: ${e.query}  baseline ${num(e.baseline)}  incident ${num(e.incident)}`);
  });
  if (d.causes.length === 0) lines.push('(no cause)');
  if (d.ruledOut.length > 0) {
    lines.push('', 'Ruled out:');
    lines.push(...columns(d.ruledOut.map((r) => [`  ${r.cause}`, r.reason])));
  }
  return lines.join('\n') + '\n';
}

/**
 * Runs `infersight diagnose`. Resolves with the exit status: 0 with the table printed, 1 when the
 * server refused or could not be reached (its message on stderr), 2 for a usage error (thrown).
 */
export async function diagnoseCommand(argv: string[], io: DiagnoseIo = processIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      server: { type: 'string' },
      time: { type: 'string' },
      match: { type: 'string', multiple: true },
      symptom: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help === true) {
    io.stdout(DIAGNOSE_USAGE);
    return 0;
  }
  if (values.server === undefined || values.server === '') throw new UsageError('diagnose needs --server URL');
  let timeMs: number | undefined;
  if (values.time !== undefined) {
    try {
      timeMs = parseTime(values.time);
    } catch (e) {
      throw new UsageError(`invalid --time: ${(e as Error).message} (Unix seconds or RFC 3339)`, false);
    }
  }
  const client = (io.client ?? ((url) => new HttpDiagnosisClient({ url })))(values.server);
  try {
    const { data } = await client.diagnosis({ timeMs, match: values.match, symptom: values.symptom });
    io.stdout(values.json ? JSON.stringify(data, null, 2) + '\n' : formatDiagnosis(data, values.symptom));
    return 0;
  } catch (e) {
    if (!isQueryClientError(e)) throw e;
    io.stderr(`infersight: diagnose: ${e.message}\n`);
    return 1;
  }
}
