/**
 * The price catalog: instance type → price per hour, GPUs, GPU model and memory. The shipped
 * defaults (`DEFAULT_PRICE_CATALOG_YAML`) are overlaid by a deployment's file that lists only what it
 * changes: new instance types, price overrides, discounts per instance type or provider, and the
 * pricing kind they stand for. Every mistake is a `ConfigError` at `path:line:column`; the caller
 * keeps the last good catalog in force when a reload fails (as src/server does for its config).
 */
import type { YamlNode } from '../config/index.js';
import { DEFAULT_PRICE_CATALOG_YAML } from './data/prices.js';
import type { InstancePrice, PriceCatalog, PriceProvider } from './types.js';
import { CatalogFile } from './yaml-fields.js';

const PROVIDERS: readonly PriceProvider[] = ['aws', 'gcp', 'azure', 'custom'];
const PRICING: readonly InstancePrice['pricing'][] = ['on-demand', 'reserved', 'spot'];
const TOP_FIELDS = ['taken_on', 'region', 'pricing', 'instance_types', 'discounts'];
const TYPE_FIELDS = ['name', 'provider', 'price_per_hour', 'gpus', 'gpu_model', 'gpu_memory_gib', 'region'];
const DISCOUNT_FIELDS = ['instance_type', 'provider', 'discount', 'pricing'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** An instance type as a file states it, before discounts. */
interface Listed {
  readonly instanceType: string;
  readonly provider: PriceProvider;
  readonly onDemandPerHourUsd: number;
  readonly gpuCount: number;
  readonly gpuModel: string;
  readonly gpuMemoryGiB: number;
  readonly region?: string;
}

interface Discount {
  readonly discount: number;
  readonly pricing: InstancePrice['pricing'] | undefined;
}

let defaults: PriceCatalog | undefined;

/** The shipped default catalog, parsed once. */
export function defaultPriceCatalog(): PriceCatalog {
  defaults ??= parsePriceCatalog(DEFAULT_PRICE_CATALOG_YAML, '<default prices>', EMPTY);
  return defaults;
}

const EMPTY: PriceCatalog = { takenOn: '', region: '', instances: new Map() };

/**
 * Parses a price catalog file over `base` (the parsed defaults when absent) and returns the merged
 * catalog. A listed instance type new to `base` needs every field; one `base` has takes only the
 * fields given. `discounts:` entries name an `instance_type` or a `provider` (the instance type's
 * wins), 0 ≤ discount < 1, and optionally their `pricing` kind (else the file's `pricing:`, else
 * `reserved`). Throws a `ConfigError` `path:line:column: …` on the first mistake; `base` is untouched.
 */
export function parsePriceCatalog(text: string, path: string, base: PriceCatalog = defaultPriceCatalog()): PriceCatalog {
  const f: CatalogFile = new CatalogFile(text, path);
  const root = f.root();
  const top = f.fields(root, 'the price catalog', TOP_FIELDS);
  const takenOn = top.taken_on === undefined ? base.takenOn : dateOf(f, top.taken_on);
  const region = top.region === undefined ? base.region : f.string(top.region, 'region');
  const pricing = top.pricing === undefined ? undefined : f.oneOf(top.pricing, 'pricing', PRICING);

  const listed = new Map<string, Listed>();
  for (const [k, v] of base.instances) listed.set(k, v);
  const seen = new Set<string>();
  for (const item of top.instance_types === undefined ? [] : f.list(top.instance_types, 'instance_types')) {
    const x = f.fields(item, 'an instance type', TYPE_FIELDS);
    if (x.name === undefined) f.fail(item, 'an instance type needs a name');
    const name = f.string(x.name, 'name');
    if (seen.has(name)) f.fail(x.name, `duplicate instance type ${JSON.stringify(name)}`);
    seen.add(name);
    const was = listed.get(name);
    const need = (n: YamlNode | undefined, field: string): YamlNode => n ?? f.fail(item, `new instance type ${JSON.stringify(name)} needs ${field}`);
    const provider = x.provider !== undefined ? f.oneOf(x.provider, 'provider', PROVIDERS) : (was?.provider ?? 'custom');
    const price = x.price_per_hour !== undefined || was === undefined ? f.number(need(x.price_per_hour, 'price_per_hour'), 'price_per_hour', { min: 0 }) : was.onDemandPerHourUsd;
    const gpus = x.gpus !== undefined || was === undefined ? f.number(need(x.gpus, 'gpus'), 'gpus', { min: 1, integer: true }) : was.gpuCount;
    const gpuModel = x.gpu_model !== undefined || was === undefined ? f.string(need(x.gpu_model, 'gpu_model'), 'gpu_model') : was.gpuModel;
    const mem = x.gpu_memory_gib !== undefined || was === undefined ? f.number(need(x.gpu_memory_gib, 'gpu_memory_gib'), 'gpu_memory_gib', { min: 0 }) : was.gpuMemoryGiB;
    const reg = x.region !== undefined ? f.string(x.region, 'region') : was?.region;
    listed.set(name, { instanceType: name, provider, onDemandPerHourUsd: price, gpuCount: gpus, gpuModel, gpuMemoryGiB: mem, ...(reg === undefined ? {} : { region: reg }) });
  }

  // Discounts: the base's stay unless this file names the same instance type or provider again.
  const byType = new Map<string, Discount>();
  const byProvider = new Map<string, Discount>();
  for (const v of base.instances.values()) {
    if (v.discount > 0 || v.pricing !== 'on-demand') byType.set(v.instanceType, { discount: v.discount, pricing: v.pricing });
  }
  const named = new Set<string>();
  for (const item of top.discounts === undefined ? [] : f.list(top.discounts, 'discounts')) {
    const x = f.fields(item, 'a discount', DISCOUNT_FIELDS);
    if ((x.instance_type === undefined) === (x.provider === undefined)) f.fail(item, 'a discount names exactly one of instance_type and provider');
    if (x.discount === undefined) f.fail(item, 'a discount needs discount (0 ≤ d < 1)');
    const d: Discount = { discount: f.number(x.discount, 'discount', { min: 0, below: 1 }), pricing: x.pricing === undefined ? pricing : f.oneOf(x.pricing, 'pricing', PRICING) };
    if (x.instance_type !== undefined) {
      const t = f.string(x.instance_type, 'instance_type');
      if (!listed.has(t)) f.fail(x.instance_type, `discount for unknown instance type ${JSON.stringify(t)}`);
      if (named.has(`t/${t}`)) f.fail(x.instance_type, `duplicate discount for instance type ${JSON.stringify(t)}`);
      named.add(`t/${t}`);
      byType.set(t, d);
    } else {
      const p = f.oneOf(x.provider!, 'provider', PROVIDERS);
      if (named.has(`p/${p}`)) f.fail(x.provider!, `duplicate discount for provider ${p}`);
      named.add(`p/${p}`);
      byProvider.set(p, d);
      // A provider discount in this file replaces the base's per-type ones of that provider.
      for (const [t, v] of listed) if (v.provider === p && !named.has(`t/${t}`)) byType.delete(t);
    }
  }

  const instances = new Map<string, InstancePrice>();
  for (const [name, v] of listed) {
    const d = byType.get(name) ?? byProvider.get(v.provider);
    const discount = d?.discount ?? 0;
    const kind: InstancePrice['pricing'] = discount === 0 && d?.pricing === undefined ? 'on-demand' : (d?.pricing ?? pricing ?? 'reserved');
    instances.set(name, { ...v, discount, pricing: kind, effectivePerHourUsd: v.onDemandPerHourUsd * (1 - discount) });
  }
  return { takenOn, region, instances };
}

function dateOf(f: CatalogFile, n: YamlNode): string {
  // YAML 1.1 reads an unquoted 2025-01-15 as a timestamp: its source text is the date.
  const src = (n.node as { source?: unknown } | null)?.source;
  const s = typeof src === 'string' ? src.trim() : f.string(n, 'taken_on');
  if (!DATE.test(s)) f.fail(n, `taken_on must be a date YYYY-MM-DD, not ${JSON.stringify(s)}`);
  return s;
}

/** The price per GPU-hour of an instance type (its effective price over its GPUs). */
export function gpuPricePerHour(p: InstancePrice): number {
  return p.effectivePerHourUsd / p.gpuCount;
}
