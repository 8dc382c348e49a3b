/**
 * Insights, cold starts: where a new replica's start went (waiting for an instance, container,
 * model download, engine start and weight load, warm-up), per replica, beside the replicas each
 * component has by state. The phases come from the platform (`llm_cold_start_phase_duration_seconds`,
 * which carries the replica's identity); the engines' own load times (SGLang, DJL/LMI) sit beside
 * them as a cross-check.
 */
import { sel, sumBy } from './queries.js';
import { ofSelectedComponents } from './selection.js';
import type { Panel, Row } from './types.js';

const PHASE = 'llm_cold_start_phase_duration_seconds';

/** One column of the anatomy table: a phase of the replica's last start. */
function phase(refId: string, title: string, name: string): Panel['queries'][number] {
  return { refId, title, unit: 'seconds', expr: `max by (replica) (${sel(PHASE, `phase="${name}"`)})`, instant: true };
}

const ANATOMY: Panel = {
  id: 'cold-start-anatomy',
  title: 'Cold-start anatomy',
  description:
    "Per replica that started while the platform watched (and still runs): seconds its last start spent waiting for a new instance, in the container start, downloading the model (0 when cached on the instance), in engine start and weight load, and warming up (a running phase counts up), then the whole cold start to its first request, and the load time the engine reports itself.",
  viz: 'table',
  unit: 'seconds',
  queries: [
    {
      refId: 'instance_wait',
      title: 'Instance launch',
      unit: 'seconds',
      expr: `max by (replica, component, instance, az) (${sel(PHASE, 'phase="instance"')})`,
      instant: true,
    },
    phase('container', 'Container', 'container'),
    phase('download', 'Download', 'download'),
    phase('load', 'Load', 'load'),
    phase('warmup', 'Warm-up', 'warmup'),
    { refId: 'cold_start', title: 'Cold start (to first request)', unit: 'seconds', expr: `max by (replica) (${sel('llm_cold_start_duration_seconds_sum')})`, instant: true },
    { refId: 'engine_load', title: 'Load (engine-reported)', unit: 'seconds', expr: `max by (replica) (${sel('llm_model_load_duration_seconds')})`, instant: true },
  ],
  joinOn: ['replica'],
  width: 16,
  height: 8,
  emptyHint: 'Fills when a replica starts (a scale-out, a replacement); needs the platform to report start phases per replica (the demo fleet does).',
};

const REPLICA_STATES: Panel = {
  id: 'replica-states',
  title: 'Replicas by state',
  description: 'Replicas of each inference component that are ready and that are still starting (waiting for an instance, downloading, loading, warming up). Starting replicas that stay starting are a cold start gone slow.',
  viz: 'timeseries',
  unit: 'count',
  queries: [
    { refId: 'ready', legend: '{{component}} ready', expr: ofSelectedComponents(sumBy(['component'], sel('llm_replicas', 'state="ready"'))) },
    { refId: 'starting', legend: '{{component}} starting', expr: ofSelectedComponents(sumBy(['component'], sel('llm_replicas', 'state="starting"'))) },
  ],
  width: 8,
  height: 8,
  emptyHint: 'Needs llm_replicas from the platform (the demo fleet exports it).',
};

/** The cold-start row. */
export const COLD_START_ROW: Row = { id: 'cold-starts', title: 'Cold starts', panels: [ANATOMY, REPLICA_STATES] };
