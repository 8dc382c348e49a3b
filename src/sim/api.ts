/**
 * The simulator's control API, as Node request handlers any server can mount (the sim's own
 * listener does; `infersight demo` mounts them on the main server):
 *
 * - `GET /api/v1/sim/ground-truth`: every fault so far (kind, scope, params, start, end).
 * - `GET /api/v1/sim/faults`: the fault kinds with their parameters and effects.
 * - `POST /api/v1/sim/faults`: injects a fault, body `{"kind", "scope"?, "duration"?: "10m",
 *   "startIn"?: "0s", "params"?}`; answers its ground-truth entry.
 * - `DELETE /api/v1/sim/faults/<id>`: clears a fault (scenario or injected) now; answers its
 *   ground-truth entry, whose end is now the clearing time. 400 for an id that is not a positive
 *   integer, 404 for one no fault has.
 * - `GET /api/v1/sim/targets`: the file_sd target groups.
 *
 * Answers use the Prometheus API envelope (`{"status":"success","data":...}`; errors
 * `{"status":"error","errorType":"bad_data"|"not_found","error":...}`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseDurationMs } from '../model/index.js';
import { FAULT_DEFAULTS, componentInScope, instanceInScope, replicaInScope, type GroundTruthEntry } from './faults.js';
import { BodyReadError, readJson } from './openai.js';
import type { Simulation } from './simulation.js';
import { FAULT_KINDS, type FaultKind, type FaultScope, type FaultSpec } from './spec.js';
import type { FileSdGroup } from './targets.js';

/** A request handler; extra arguments (a router's URL and params) are ignored. */
export type SimHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The control API's handlers. */
export interface SimApiHandlers {
  readonly getGroundTruth: SimHandler;
  readonly getFaults: SimHandler;
  readonly postFault: SimHandler;
  /** Takes the fault id from the path (`/api/v1/sim/faults/<id>`, decoded) as its third argument. */
  readonly deleteFault: (req: IncomingMessage, res: ServerResponse, id: string) => Promise<void>;
  readonly getTargets: SimHandler;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

const SCOPE_KEYS = ['endpoint', 'component', 'instance', 'az', 'instanceType', 'replica'] as const;

/**
 * Validates a fault request body into a spec (times relative to now, virtual) or an error message.
 * A scope must match something in the fleet, so a typo is refused instead of silently doing nothing.
 */
export function parseFaultRequest(sim: Simulation, body: unknown): FaultSpec | string {
  if (typeof body !== 'object' || body === null) return 'the body must be a JSON object';
  const b = body as Record<string, unknown>;
  if (typeof b.kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(b.kind)) return `"kind" must be one of ${FAULT_KINDS.join(', ')}`;
  const scopeIn = (b.scope ?? {}) as Record<string, unknown>;
  if (typeof scopeIn !== 'object') return '"scope" must be an object';
  const scope: Record<string, string> = {};
  for (const [k, v] of Object.entries(scopeIn)) {
    if (!(SCOPE_KEYS as readonly string[]).includes(k) || typeof v !== 'string') return `scope.${k}: want a string field among ${SCOPE_KEYS.join(', ')}`;
    scope[k] = v;
  }
  const f = sim.fleet;
  const s = scope as FaultScope;
  if (!f.components.some((c) => componentInScope(c, s)) || !f.instances.some((i) => instanceInScope(i, s)) || (s.replica !== undefined && !f.replicas.some((r) => replicaInScope(r, s)))) {
    return `scope ${JSON.stringify(scope)} matches nothing (components: ${f.components.map((c) => c.spec.name).join(', ')}; instances: ${f.instances.map((i) => i.id).join(', ')})`;
  }
  const dur = (name: string, def: number): number | string => {
    const v = b[name];
    if (v === undefined) return def;
    const ms = typeof v === 'string' ? parseDurationMs(v) : undefined;
    return ms === undefined ? `"${name}" must be a duration such as "10m"` : ms;
  };
  const duration = dur('duration', 10 * 60_000);
  const startIn = dur('startIn', 0);
  if (typeof duration === 'string') return duration;
  if (typeof startIn === 'string') return startIn;
  const params: Record<string, number | string> = {};
  for (const [k, v] of Object.entries((b.params ?? {}) as Record<string, unknown>)) {
    if (typeof v !== 'number' && typeof v !== 'string') return `params.${k} must be a number or a string`;
    params[k] = v;
  }
  return { kind: b.kind as FaultKind, startMs: startIn, endMs: startIn + duration, scope: s, params };
}

/** A fault id in a path: a positive integer, as the ground truth numbers faults from 1. */
const FAULT_ID = /^[1-9][0-9]{0,14}$/;

/**
 * Builds the handlers over `sim`; `fileSd` gives the current target groups, `onFault` is told of
 * every injected or cleared fault (its new ground-truth entry).
 */
export function simApiHandlers(sim: Simulation, fileSd: () => FileSdGroup[], onFault?: (e: GroundTruthEntry) => void): SimApiHandlers {
  return {
    getGroundTruth: async (_req, res) => send(res, 200, { status: 'success', data: sim.groundTruth() }),
    getFaults: async (_req, res) =>
      send(res, 200, { status: 'success', data: FAULT_KINDS.map((kind) => ({ kind, params: FAULT_DEFAULTS[kind].params, effect: FAULT_DEFAULTS[kind].effect })) }),
    getTargets: async (_req, res) => send(res, 200, { status: 'success', data: fileSd() }),
    postFault: async (req, res) => {
      let body: unknown;
      try {
        body = await readJson(req);
      } catch (e) {
        const status = e instanceof BodyReadError ? e.status : 400;
        if (status !== 400) res.setHeader('Connection', 'close');
        send(res, status, { status: 'error', errorType: 'bad_data', error: (e as Error).message });
        return;
      }
      const spec = parseFaultRequest(sim, body);
      if (typeof spec === 'string') {
        send(res, 400, { status: 'error', errorType: 'bad_data', error: spec });
        return;
      }
      const entry = sim.injectFault(spec);
      onFault?.(entry);
      send(res, 200, { status: 'success', data: entry });
    },
    deleteFault: async (req, res, id) => {
      req.resume();
      if (!FAULT_ID.test(id)) {
        send(res, 400, { status: 'error', errorType: 'bad_data', error: `invalid fault id ${JSON.stringify(id)}: want the positive integer "id" of a ground-truth entry` });
        return;
      }
      const entry = sim.clearFault(Number(id));
      if (entry === undefined) {
        send(res, 404, { status: 'error', errorType: 'not_found', error: `no fault with id ${id} (GET /api/v1/sim/ground-truth lists them)` });
        return;
      }
      onFault?.(entry);
      send(res, 200, { status: 'success', data: entry });
    },
  };
}
