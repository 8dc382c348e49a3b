/**
 * Reads a scenario file: JSON text into a `ScenarioSpec` (spec.ts), checked field by field so that
 * every error names the field's path (`fleet.endpoints[0].components[1].load.ratePerSec: ...`).
 * Unknown fields are refused (a typo must not silently fall back to a default); durations are
 * milliseconds or Prometheus duration strings (`"90s"`, `"1h30m"`); models and instance types must
 * be in the catalogs; sizes stay under `SCENARIO_LIMITS`, so a hostile or mistaken file cannot make
 * the process build a fleet it cannot hold. docs/sim.md documents the format.
 */
import { parseDurationMs } from '../model/index.js';
import { INSTANCE_TYPES } from './data/instance-types.js';
import { MODELS } from './data/models.js';
import { FAULT_DEFAULTS } from './faults.js';
import { buildPerfModel } from './perf.js';
import { FAULT_KINDS, type AutoscalingSpec, type ComponentSpec, type EndpointSpec, type FaultSpec, type FleetSpec, type LengthDistribution, type LoadSpec, type ScenarioSpec } from './spec.js';

/** The bounds a scenario file must stay within (documented in docs/sim.md). */
export const SCENARIO_LIMITS = {
  /** Instances of the whole fleet at its largest (the sum of every endpoint's `instances.max`), as `fleet-<N>`. */
  maxInstances: 5000,
  /** Endpoints, components per endpoint, faults. */
  maxEndpoints: 1000,
  maxComponentsPerEndpoint: 20,
  maxFaults: 1000,
  /** Requests per second of one component at its diurnal midline. */
  maxRatePerSec: 1000,
  /** Tokens of a prompt or output, and a component's max_model_len. */
  maxTokens: 1_048_576,
  /** Any duration (a fault's end, the diurnal period, the scenario's length): 31 days. */
  maxDurationMs: 31 * 86_400_000,
  /** The file itself, bytes. */
  maxFileBytes: 4 * 1024 * 1024,
} as const;

/** A scenario file that is not valid; the message names the field. */
export class ScenarioFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioFileError';
  }
}

/** Names become label values, target ids and URL path segments: keep them plain. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

type Obj = Record<string, unknown>;

function fail(path: string, want: string, got: unknown): never {
  const shown = got === undefined ? 'nothing' : (JSON.stringify(got) as string | undefined)?.slice(0, 60) ?? typeof got;
  throw new ScenarioFileError(`${path}: want ${want}, got ${shown}`);
}

function object(v: unknown, path: string, keys: readonly string[], required: readonly string[] = keys): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'an object', v);
  const o = v as Obj;
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw new ScenarioFileError(`${path === '' ? '' : `${path}.`}${k}: unknown field (known: ${keys.length === 0 ? 'none' : keys.join(', ')})`);
  for (const k of required) if (o[k] === undefined) throw new ScenarioFileError(`${path === '' ? '' : `${path}.`}${k}: missing`);
  return o;
}

function array(v: unknown, path: string, max: number, min = 0): unknown[] {
  if (!Array.isArray(v)) fail(path, 'an array', v);
  if (v.length < min || v.length > max) fail(path, `an array of ${min} to ${max} entries`, `${v.length} entries`);
  return v as unknown[];
}

function num(v: unknown, path: string, min: number, max: number, integer = false): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) fail(path, `${integer ? 'an integer' : 'a number'} from ${min} to ${max}`, v);
  return v;
}

function str(v: unknown, path: string, pattern: RegExp = NAME): string {
  if (typeof v !== 'string' || !pattern.test(v)) fail(path, pattern === NAME ? 'a name of letters, digits, ".", "_" or "-" (at most 63)' : 'a string', v);
  return v;
}

function oneOf<T extends string>(v: unknown, path: string, options: readonly T[]): T {
  if (typeof v !== 'string' || !options.includes(v as T)) fail(path, `one of ${options.join(', ')}`, v);
  return v as T;
}

/** Milliseconds, or a Prometheus duration string. */
function duration(v: unknown, path: string, min = 0): number {
  const ms = typeof v === 'string' ? parseDurationMs(v) : v;
  return num(ms ?? v, path, min, SCENARIO_LIMITS.maxDurationMs, true);
}

function lengths(v: unknown, path: string): LengthDistribution {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'an object', v);
  const kind = oneOf((v as Obj).kind, `${path}.kind`, ['lognormal', 'uniform', 'fixed'] as const);
  const T = SCENARIO_LIMITS.maxTokens;
  if (kind === 'fixed') return { kind, value: num(object(v, path, ['kind', 'value']).value, `${path}.value`, 1, T, true) };
  const o = object(v, path, kind === 'lognormal' ? ['kind', 'median', 'sigma', 'min', 'max'] : ['kind', 'min', 'max']);
  const min = num(o.min, `${path}.min`, 1, T, true);
  const max = num(o.max, `${path}.max`, min, T, true);
  if (kind === 'uniform') return { kind, min, max };
  return { kind, median: num(o.median, `${path}.median`, 1, T), sigma: num(o.sigma, `${path}.sigma`, 0, 5), min, max };
}

function load(v: unknown, path: string): LoadSpec {
  const o = object(v, path, ['ratePerSec', 'diurnalAmplitude', 'diurnalPeriodMs', 'bursts', 'prompt', 'output', 'prefixShare', 'prefixTokens', 'streamShare'], ['ratePerSec', 'prompt', 'output']);
  const spec: { -readonly [K in keyof LoadSpec]: LoadSpec[K] } = {
    ratePerSec: num(o.ratePerSec, `${path}.ratePerSec`, 0, SCENARIO_LIMITS.maxRatePerSec),
    diurnalAmplitude: o.diurnalAmplitude === undefined ? 0 : num(o.diurnalAmplitude, `${path}.diurnalAmplitude`, 0, 0.99),
    diurnalPeriodMs: o.diurnalPeriodMs === undefined ? 86_400_000 : duration(o.diurnalPeriodMs, `${path}.diurnalPeriodMs`, 60_000),
    prompt: lengths(o.prompt, `${path}.prompt`),
    output: lengths(o.output, `${path}.output`),
  };
  if (o.bursts !== undefined) {
    const b = object(o.bursts, `${path}.bursts`, ['meanGapMs', 'durationMs', 'multiplier']);
    spec.bursts = { meanGapMs: duration(b.meanGapMs, `${path}.bursts.meanGapMs`, 1000), durationMs: duration(b.durationMs, `${path}.bursts.durationMs`, 1000), multiplier: num(b.multiplier, `${path}.bursts.multiplier`, 1, 100) };
  }
  if (o.prefixShare !== undefined) spec.prefixShare = num(o.prefixShare, `${path}.prefixShare`, 0, 1);
  if (o.prefixTokens !== undefined) spec.prefixTokens = num(o.prefixTokens, `${path}.prefixTokens`, 0, SCENARIO_LIMITS.maxTokens, true);
  if (o.streamShare !== undefined) spec.streamShare = num(o.streamShare, `${path}.streamShare`, 0, 1);
  return spec;
}

function component(v: unknown, path: string, instanceTypeName: string): ComponentSpec {
  const o = object(v, path, ['name', 'model', 'engine', 'gpusPerCopy', 'copies', 'maxModelLen', 'load', 'autoscaling', 'router'], ['name', 'model', 'engine', 'copies', 'load']);
  const it = INSTANCE_TYPES[instanceTypeName];
  const model = oneOf(o.model, `${path}.model`, Object.keys(MODELS));
  const engine = oneOf(o.engine, `${path}.engine`, ['vllm', 'sglang', 'djl'] as const);
  const gpusPerCopy = o.gpusPerCopy === undefined ? 1 : num(o.gpusPerCopy, `${path}.gpusPerCopy`, 1, it.gpuCount, true);
  // A model that leaves no KV cache on its GPUs could never serve a token.
  if (buildPerfModel(MODELS[model], it, gpusPerCopy, engine, { downloadMBps: 1 }).kvBlocks < 1) {
    throw new ScenarioFileError(`${path}.gpusPerCopy: ${model} does not fit on ${gpusPerCopy} ${it.gpu.modelName} GPU(s) of ${it.name} with room for a KV cache`);
  }
  const c = object(o.copies, `${path}.copies`, ['initial', 'min', 'max']);
  const max = num(c.max, `${path}.copies.max`, 1, SCENARIO_LIMITS.maxInstances * 8, true);
  const min = num(c.min, `${path}.copies.min`, 0, max, true);
  const spec: { -readonly [K in keyof ComponentSpec]: ComponentSpec[K] } = {
    name: str(o.name, `${path}.name`),
    model,
    engine,
    gpusPerCopy,
    copies: { initial: num(c.initial, `${path}.copies.initial`, min, max, true), min, max },
    maxModelLen: o.maxModelLen === undefined ? Math.min(MODELS[model].maxContextTokens, 16_384) : num(o.maxModelLen, `${path}.maxModelLen`, 16, SCENARIO_LIMITS.maxTokens, true),
    load: load(o.load, `${path}.load`),
  };
  if (o.autoscaling !== undefined) {
    const a = object(o.autoscaling, `${path}.autoscaling`, ['targetConcurrencyPerCopy', 'evaluationPeriodMs', 'scaleOutCooldownMs', 'scaleInCooldownMs']);
    const as: AutoscalingSpec = {
      targetConcurrencyPerCopy: num(a.targetConcurrencyPerCopy, `${path}.autoscaling.targetConcurrencyPerCopy`, 0.1, 10_000),
      evaluationPeriodMs: duration(a.evaluationPeriodMs, `${path}.autoscaling.evaluationPeriodMs`, 1000),
      scaleOutCooldownMs: duration(a.scaleOutCooldownMs, `${path}.autoscaling.scaleOutCooldownMs`),
      scaleInCooldownMs: duration(a.scaleInCooldownMs, `${path}.autoscaling.scaleInCooldownMs`),
    };
    spec.autoscaling = as;
  }
  if (o.router !== undefined) {
    const r = object(o.router, `${path}.router`, ['rateLimitPerSec', 'maxConcurrency'], []);
    spec.router = {
      ...(r.rateLimitPerSec === undefined ? {} : { rateLimitPerSec: num(r.rateLimitPerSec, `${path}.router.rateLimitPerSec`, 0.01, 1e6) }),
      ...(r.maxConcurrency === undefined ? {} : { maxConcurrency: num(r.maxConcurrency, `${path}.router.maxConcurrency`, 1, 1e6, true) }),
    };
  }
  return spec;
}

function endpoint(v: unknown, path: string): EndpointSpec {
  const o = object(v, path, ['name', 'instanceType', 'instances', 'azs', 'components']);
  const instanceType = oneOf(o.instanceType, `${path}.instanceType`, Object.keys(INSTANCE_TYPES));
  const i = object(o.instances, `${path}.instances`, ['initial', 'max']);
  const max = num(i.max, `${path}.instances.max`, 1, SCENARIO_LIMITS.maxInstances, true);
  const azs = array(o.azs, `${path}.azs`, 16, 1).map((a, k) => str(a, `${path}.azs[${k}]`));
  if (new Set(azs).size !== azs.length) fail(`${path}.azs`, 'distinct names', azs);
  const components = array(o.components, `${path}.components`, SCENARIO_LIMITS.maxComponentsPerEndpoint, 1).map((c, k) => component(c, `${path}.components[${k}]`, instanceType));
  return { name: str(o.name, `${path}.name`), instanceType, instances: { initial: num(i.initial, `${path}.instances.initial`, 0, max, true), max }, azs, components };
}

function fleet(v: unknown): FleetSpec {
  const o = object(v, 'fleet', ['endpoints', 'downloadMBps', 'instanceLaunchMs', 'containerStartMs'], ['endpoints']);
  const endpoints = array(o.endpoints, 'fleet.endpoints', SCENARIO_LIMITS.maxEndpoints, 1).map((e, k) => endpoint(e, `fleet.endpoints[${k}]`));
  const unique = (names: string[], path: string): void => {
    const dup = names.find((n, k) => names.indexOf(n) !== k);
    if (dup !== undefined) throw new ScenarioFileError(`${path}: the name ${JSON.stringify(dup)} is used twice`);
  };
  unique(endpoints.map((e) => e.name), 'fleet.endpoints[].name');
  unique(endpoints.flatMap((e) => e.components.map((c) => c.name)), 'fleet.endpoints[].components[].name');
  const instances = endpoints.reduce((n, e) => n + e.instances.max, 0);
  if (instances > SCENARIO_LIMITS.maxInstances) fail('fleet.endpoints[].instances.max', `at most ${SCENARIO_LIMITS.maxInstances} instances in all`, instances);
  const spec: { -readonly [K in keyof FleetSpec]: FleetSpec[K] } = { endpoints };
  if (o.downloadMBps !== undefined) spec.downloadMBps = num(o.downloadMBps, 'fleet.downloadMBps', 1, 100_000);
  if (o.instanceLaunchMs !== undefined) spec.instanceLaunchMs = duration(o.instanceLaunchMs, 'fleet.instanceLaunchMs');
  if (o.containerStartMs !== undefined) spec.containerStartMs = duration(o.containerStartMs, 'fleet.containerStartMs');
  return spec;
}

function fault(v: unknown, path: string, f: FleetSpec): FaultSpec {
  const o = object(v, path, ['kind', 'startMs', 'endMs', 'scope', 'params'], ['kind', 'startMs', 'endMs']);
  const kind = oneOf(o.kind, `${path}.kind`, FAULT_KINDS);
  const startMs = duration(o.startMs, `${path}.startMs`);
  const endMs = duration(o.endMs, `${path}.endMs`, startMs + 1);
  const s = object(o.scope ?? {}, `${path}.scope`, ['endpoint', 'component', 'instance', 'az', 'instanceType', 'replica'], []);
  const names = {
    endpoint: f.endpoints.map((e) => e.name),
    component: f.endpoints.flatMap((e) => e.components.map((c) => c.name)),
    az: [...new Set(f.endpoints.flatMap((e) => e.azs))],
    instanceType: [...new Set(f.endpoints.map((e) => e.instanceType))],
  };
  const scope: Record<string, string> = {};
  for (const [k, val] of Object.entries(s)) scope[k] = k in names ? oneOf(val, `${path}.scope.${k}`, names[k as keyof typeof names]) : str(val, `${path}.scope.${k}`);
  const params: Record<string, number | string> = {};
  if (o.params !== undefined) {
    const known = [...Object.keys(FAULT_DEFAULTS[kind].params), ...(kind === 'az-traffic-skew' ? ['toAz'] : [])];
    const p = object(o.params, `${path}.params`, known, []);
    for (const [k, val] of Object.entries(p)) {
      if (typeof val === 'string') params[k] = str(val, `${path}.params.${k}`);
      else params[k] = num(val, `${path}.params.${k}`, -1e9, 1e9);
    }
  }
  return { kind, startMs, endMs, scope, ...(o.params === undefined ? {} : { params }) };
}

/**
 * Parses and checks a scenario file's text. `name` defaults to `fallbackName` (the file's base
 * name), `description` to empty, `faults` to none, `durationMs` to the last fault's end or 24 h.
 * Throws `ScenarioFileError` naming the first field that is wrong.
 */
export function parseScenarioSpec(text: string, fallbackName = 'scenario-file'): ScenarioSpec {
  if (text.length > SCENARIO_LIMITS.maxFileBytes) throw new ScenarioFileError(`the file is larger than ${SCENARIO_LIMITS.maxFileBytes} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ScenarioFileError(`not JSON: ${(e as Error).message}`);
  }
  const o = object(json, '', ['name', 'description', 'fleet', 'faults', 'durationMs'], ['fleet']);
  const f = fleet(o.fleet);
  const faults = o.faults === undefined ? [] : array(o.faults, 'faults', SCENARIO_LIMITS.maxFaults).map((x, k) => fault(x, `faults[${k}]`, f));
  const lastEnd = faults.reduce((m, x) => Math.max(m, x.endMs), 0);
  return {
    name: o.name === undefined ? fallbackName : str(o.name, 'name'),
    description: o.description === undefined ? '' : str(o.description, 'description', /^[^\p{Cc}]{0,500}$/u),
    fleet: f,
    faults,
    durationMs: o.durationMs === undefined ? Math.max(lastEnd, 86_400_000) : duration(o.durationMs, 'durationMs', 1000),
  };
}
