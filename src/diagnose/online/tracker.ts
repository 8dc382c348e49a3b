/**
 * The online runner's state machine, apart from any query: each tick it is handed what every
 * symptom read per scope and decides which insights open, stay open and resolve. Pure and
 * synchronous, so that live ticks and a replay in virtual time step through the same code.
 *
 * A scope's symptom must cross on `openTicks` consecutive ticks to open (one noisy scrape opens
 * nothing); its onset is the first of them. An open insight keeps the baseline it opened against
 * (an incident longer than the baseline's offset would otherwise become its own baseline and
 * "recover"), and resolves after `resolveTicks` consecutive ticks without crossing it.
 */
import { Labels, type UnixMs } from '../../model/index.js';
import type { Cause, Scope, Symptom } from '../types.js';
import { crosses, type SymptomRule } from './symptoms.js';

/** What one symptom read for one scope at one tick: a rule's value and baseline, or a burning SLO (`rule` null). */
export interface Observation {
  readonly symptom: Symptom;
  readonly scope: Scope;
  readonly rule: SymptomRule | null;
  readonly value: number | null;
  readonly baseline: number | null;
}

/** How many ticks open and resolve an insight. */
export interface TrackerOptions {
  /** Consecutive crossing ticks before an insight opens (default 2). */
  readonly openTicks?: number;
  /** Consecutive ticks without crossing before it resolves (default 4). */
  readonly resolveTicks?: number;
}

/** An insight as the tracker holds it: the contract's fields, causes filled in by the runner. */
export interface TrackedInsight {
  id: string;
  readonly symptom: Symptom;
  readonly scope: Scope;
  readonly onsetMs: UnixMs;
  readonly detectedMs: UnixMs;
  resolvedMs: UnixMs | null;
  causes: readonly Cause[];
  /** When the runner last asked the diagnoser, and how often it has. */
  diagnosedMs: UnixMs | null;
  diagnoses: number;
}

/** What one tick changed. */
export interface TickChanges {
  readonly opened: readonly TrackedInsight[];
  readonly resolved: readonly TrackedInsight[];
  /** Every insight open after the tick, the newly opened included. */
  readonly open: readonly TrackedInsight[];
}

interface Track {
  pendingSinceMs: UnixMs | null;
  pendingTicks: number;
  insight: TrackedInsight | null;
  /** The baselines the open insight crossed, by rule. */
  frozen: Map<SymptomRule, number | null>;
  calmTicks: number;
}

/** The key of a symptom in a scope (also what the insight id is derived from). */
export function scopeKey(symptom: Symptom, scope: Scope): string {
  return `${symptom}${Labels.from(scope).toString()}`;
}

/**
 * The insight id: the symptom, a hash of the scope and the onset in Unix seconds
 * (`ttft-5f2c01ab-1736154000`). The same data gives the same id, live or replayed.
 */
export function insightId(symptom: Symptom, scope: Scope, onsetMs: UnixMs): string {
  return `${symptom}-${Labels.from(scope).hash().toString(16).padStart(8, '0')}-${Math.floor(onsetMs / 1000)}`;
}

/** The tracker. One per runner; not shared. */
export class InsightTracker {
  private readonly tracks = new Map<string, Track>();
  private readonly openTicks: number;
  private readonly resolveTicks: number;

  constructor(o: TrackerOptions = {}) {
    this.openTicks = Math.max(1, o.openTicks ?? 2);
    this.resolveTicks = Math.max(1, o.resolveTicks ?? 4);
  }

  /** Steps every scope to `tMs` with the tick's observations; a scope with none seen is calm. */
  step(tMs: UnixMs, observations: readonly Observation[]): TickChanges {
    const byKey = new Map<string, Observation[]>();
    for (const o of observations) {
      const k = scopeKey(o.symptom, o.scope);
      const list = byKey.get(k);
      if (list === undefined) byKey.set(k, [o]);
      else list.push(o);
    }
    for (const k of byKey.keys()) if (!this.tracks.has(k)) this.tracks.set(k, { pendingSinceMs: null, pendingTicks: 0, insight: null, frozen: new Map(), calmTicks: 0 });
    const opened: TrackedInsight[] = [];
    const resolved: TrackedInsight[] = [];
    const open: TrackedInsight[] = [];
    for (const [k, track] of this.tracks) {
      const obs = byKey.get(k) ?? [];
      if (track.insight === null) {
        const crossing = obs.filter((o) => o.rule === null || crosses(o.rule, o.value, o.baseline));
        if (crossing.length === 0) {
          track.pendingSinceMs = null;
          track.pendingTicks = 0;
          if (obs.length === 0) this.tracks.delete(k);
          continue;
        }
        track.pendingSinceMs ??= tMs;
        track.pendingTicks++;
        if (track.pendingTicks < this.openTicks) continue;
        const { symptom, scope } = crossing[0];
        track.insight = { id: insightId(symptom, scope, track.pendingSinceMs), symptom, scope, onsetMs: track.pendingSinceMs, detectedMs: tMs, resolvedMs: null, causes: [], diagnosedMs: null, diagnoses: 0 };
        track.frozen = new Map(crossing.filter((o) => o.rule !== null).map((o) => [o.rule as SymptomRule, o.baseline]));
        track.calmTicks = 0;
        opened.push(track.insight);
        open.push(track.insight);
        continue;
      }
      const still = obs.some((o) => o.rule === null || crosses(o.rule, o.value, track.frozen.has(o.rule) ? (track.frozen.get(o.rule) ?? null) : o.baseline));
      track.calmTicks = still ? 0 : track.calmTicks + 1;
      if (track.calmTicks < this.resolveTicks) {
        open.push(track.insight);
        continue;
      }
      track.insight.resolvedMs = tMs;
      resolved.push(track.insight);
      this.tracks.delete(k);
    }
    return { opened, resolved, open };
  }
}
