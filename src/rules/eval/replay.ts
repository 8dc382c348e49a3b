/**
 * Rules over a past span in virtual time (Prometheus' rule backfill, as `demo --history` needs
 * it): every group is evaluated at each of its ticks in `[fromMs, toMs]`, all groups' ticks
 * merged in time order, exactly as the live schedule would have run them, so recorded series,
 * `ALERTS` and `ALERTS_FOR_STATE` come out as if the rules had been running all along.
 */
import { VirtualTimers, type UnixMs } from '../../model/index.js';
import type { RuleGroupSpec } from '../types.js';
import { RuleGroup } from './group.js';
import { RULE_DEFAULTS, groupPorts, type RuleManagerOptions } from './manager.js';
import { evalTimestampMs } from './schedule.js';
import { snapshotGroups, type RulesSnapshot } from './snapshot.js';

/**
 * What a replay reads and writes: a manager's options without clock and timers (the replay keeps
 * its own). Leave `notify` out for history: alerts of the past are not to be sent.
 */
export type ReplayPorts = Omit<RuleManagerOptions, 'clock' | 'timers'> & {
  /**
   * Where ticks fall: `live` (default) at the group's own aligned instants, as the manager runs
   * them; `from` at `fromMs + k × interval`, as `promtool test rules` and `promtool tsdb
   * create-blocks-from rules` evaluate.
   */
  readonly align?: 'live' | 'from';
  /** Called after every group evaluation, in time order (tests look at the alerts there). */
  readonly afterEval?: (group: RuleGroup, evalTimeMs: UnixMs) => void | Promise<void>;
};

/** What a replay did. */
export interface ReplayResult {
  /** Group evaluations run. */
  readonly evaluations: number;
  /** The groups' state at the end (alerts, health, counters). */
  readonly snapshot: RulesSnapshot;
  /** The groups themselves, to continue from (a live manager does not take them over). */
  readonly groups: readonly RuleGroup[];
}

/** Evaluates `specs` at every tick in `[fromMs, toMs]`; alerting rules write `ALERTS` from the first tick. */
export async function runRulesOver(specs: readonly RuleGroupSpec[], fromMs: UnixMs, toMs: UnixMs, ports: ReplayPorts): Promise<ReplayResult> {
  const timers = new VirtualTimers(fromMs);
  const gp = groupPorts({ ...ports, clock: timers.clock, timers });
  const settings = {
    defaultIntervalMs: ports.evaluationIntervalMs ?? RULE_DEFAULTS.evaluationIntervalMs,
    defaultQueryOffsetMs: ports.ruleQueryOffsetMs ?? 0,
    restored: true,
  };
  const groups = specs.map((s) => new RuleGroup(s, settings, gp));
  const next: UnixMs[] = groups.map((g) => firstTick(g, fromMs, ports.align ?? 'live'));
  let evaluations = 0;
  for (;;) {
    let at = Infinity;
    for (const t of next) at = Math.min(at, t);
    if (at > toMs) break;
    timers.moveTo(at);
    for (let i = 0; i < groups.length; i++) {
      if (next[i] !== at) continue;
      await groups[i].evaluate(at);
      evaluations++;
      await ports.afterEval?.(groups[i], at);
      next[i] = at + groups[i].intervalMs;
    }
    // A replay of an hour is hundreds of ticks of small queries: let live scrapes and requests in between.
    await yieldToEventLoop();
  }
  return { evaluations, snapshot: snapshotGroups(groups), groups };
}

/**
 * Lets the event loop run what is ready (timers, sockets), then resumes: awaiting the rules'
 * promises alone never lets a live scrape or a request in. (The engine has its own, src/promql's
 * context.ts; src/model, which both could share, also runs in the browser, which has no setImmediate.)
 */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function firstTick(g: RuleGroup, fromMs: UnixMs, align: 'live' | 'from'): UnixMs {
  if (align === 'from') return fromMs;
  const t = evalTimestampMs(g.file, g.name, g.intervalMs, fromMs);
  return t < fromMs ? t + g.intervalMs : t;
}
