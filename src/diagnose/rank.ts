/**
 * Ranking: detector findings combined with the structure of the fleet into ranked causes.
 *
 * - A fault's own signature beats its downstream symptoms: when an upstream cause is found where a
 *   cause it can produce is also found (KV pressure from an AZ skew on the replicas that took the
 *   traffic, from a GPU whose memory a foreign process took, from longer prompts), the downstream
 *   one is discounted. The edges are `DOWNSTREAM`; in a cycle only the weaker side is discounted.
 * - One instance's outlier beats a fleet-wide shift: an instance-scoped finding gets a small bonus.
 * - Benign scaling completed on time is not a cause (the cold-start detector rules it out).
 * - `none` comes first, with confidence 1 − the best cause's, when no cause reaches `NAMED`.
 */
import type { Finding } from './detector.js';
import type { Cause, CauseId, Diagnosis, Scope } from './types.js';
import type { UnixMs } from '../model/index.js';

/** The confidence from which a cause is named ahead of `none`. */
export const NAMED = 0.5;
/** Findings under this confidence are left out of the causes. */
const LISTED = 0.05;
/** What a downstream finding keeps of its score. */
const DOWNSTREAM_KEEP = 0.6;
/** An upstream finding must score this much to discount its consequences. */
const UPSTREAM_MIN = 0.4;
const INSTANCE_BONUS = 0.05;

/** Which causes each cause can produce in the same part of the fleet. */
export const DOWNSTREAM: Readonly<Partial<Record<CauseId, readonly CauseId[]>>> = {
  'az-traffic-skew': ['kv-cache-pressure', 'throughput-below-benchmark', 'slow-instance', 'cold-start-storm', 'load'],
  'gpu-memory-saturation': ['kv-cache-pressure', 'engine-errors', 'cold-start-storm', 'slow-instance', 'throughput-below-benchmark'],
  'prompt-length-shift': ['kv-cache-pressure', 'throughput-below-benchmark', 'slow-instance'],
  'cold-start-storm': ['kv-cache-pressure', 'load', 'throughput-below-benchmark'],
  'rate-limit-burst': ['load', 'cold-start-storm', 'kv-cache-pressure'],
  'slow-instance': ['throughput-below-benchmark', 'kv-cache-pressure'],
  'kv-cache-pressure': ['throughput-below-benchmark', 'slow-instance', 'cold-start-storm'],
  'throughput-below-benchmark': ['kv-cache-pressure'],
  'engine-errors': ['cold-start-storm'],
  load: ['kv-cache-pressure', 'throughput-below-benchmark'],
};

const produces = (u: CauseId, d: CauseId): boolean => DOWNSTREAM[u]?.includes(d) ?? false;

/** Whether two findings can be about the same part of the fleet: no label they both name differs. */
export function overlaps(a: Finding, b: Finding): boolean {
  for (const l of ['endpoint', 'component']) {
    if (a.scope[l] !== undefined && b.scope[l] !== undefined && a.scope[l] !== b.scope[l]) return false;
  }
  const ia = instancesOf(a);
  const ib = instancesOf(b);
  if (ia.length > 0 && ib.length > 0 && !ia.some((i) => ib.includes(i))) return false;
  return true;
}

function instancesOf(f: Finding): string[] {
  return [...(f.scope.instance === undefined ? [] : [f.scope.instance]), ...(f.instances ?? [])].filter((i) => i !== '');
}

/** What the ranking gets: every finding, the detectors' reasons for finding nothing, and the diagnosis time. */
export interface RankInput {
  readonly timeMs: UnixMs;
  readonly findings: readonly Finding[];
  readonly ruledOut: readonly { readonly cause: CauseId; readonly reason: string }[];
  /** A sentence on the symptom (which one regressed, how much), for `none`'s summary. */
  readonly symptomLine: string;
}

/** Ranks findings into a diagnosis. */
export function rank(input: RankInput): Diagnosis {
  const adjusted = input.findings.map((f) => {
    let score = f.score;
    let note = '';
    const up = input.findings.find((u) => u !== f && u.score >= UPSTREAM_MIN && produces(u.cause, f.cause) && (!produces(f.cause, u.cause) || u.score >= f.score) && overlaps(u, f));
    if (up !== undefined) {
      score *= DOWNSTREAM_KEEP;
      note = ` Likely a consequence of ${up.cause}${scopeText(up.scope)}.`;
    }
    if (f.scope.instance !== undefined && score >= NAMED) score += INSTANCE_BONUS;
    return { f, score: Math.min(1, Math.max(0, score)), note };
  });
  adjusted.sort((a, b) => b.score - a.score || a.f.cause.localeCompare(b.f.cause));
  const causes: Cause[] = [];
  const seen = new Set<CauseId>();
  const ruledOut = [...input.ruledOut];
  for (const a of adjusted) {
    if (a.score < LISTED) {
      if (!seen.has(a.f.cause) && !ruledOut.some((r) => r.cause === a.f.cause)) ruledOut.push({ cause: a.f.cause, reason: `Too weak to name: ${a.f.summary}` });
      continue;
    }
    // One entry per cause, unless another part of the fleet shows it as strongly as a named cause.
    if (seen.has(a.f.cause) && a.score < NAMED) continue;
    seen.add(a.f.cause);
    causes.push({ cause: a.f.cause, confidence: round(a.score), scope: a.f.scope, onsetMs: a.f.onsetMs, summary: a.f.summary + a.note, evidence: a.f.evidence });
  }
  const best = causes[0]?.confidence ?? 0;
  if (best < NAMED) {
    causes.unshift({ cause: 'none', confidence: round(1 - best), scope: {}, onsetMs: null, summary: `Nothing stands out as broken. ${input.symptomLine}`, evidence: [] });
  } else {
    ruledOut.push({ cause: 'none', reason: `${causes[0].cause} explains the regression with confidence ${causes[0].confidence}.` });
  }
  return { timeMs: input.timeMs, causes, ruledOut: ruledOut.filter((r) => !causes.some((c) => c.cause === r.cause)) };
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

function scopeText(s: Scope): string {
  const e = Object.entries(s);
  return e.length === 0 ? '' : ` (${e.map(([k, v]) => `${k} ${v}`).join(', ')})`;
}
