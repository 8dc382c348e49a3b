import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/index.js';
import { defaultPriceCatalog, gpuPricePerHour, parsePriceCatalog } from './price-catalog.js';

describe('the default price catalog', () => {
  it('has the providers, its date and region, and every GPU count at least 1', () => {
    const c = defaultPriceCatalog();
    expect(c.takenOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(c.region).toBe('us-east-1');
    const providers = new Set([...c.instances.values()].map((p) => p.provider));
    expect([...providers].sort()).toEqual(['aws', 'azure', 'gcp']);
    for (const t of ['ml.g6.4xlarge', 'g5.xlarge', 'g6e.12xlarge', 'p4d.24xlarge', 'p4de.24xlarge', 'p5.48xlarge', 'a2-highgpu-1g', 'a3-highgpu-8g', 'g2-standard-4', 'Standard_NC24ads_A100_v4', 'Standard_ND96isr_H100_v5', 'Standard_NV36ads_A10_v5']) {
      expect(c.instances.has(t), t).toBe(true);
    }
    for (const p of c.instances.values()) {
      expect(p.gpuCount).toBeGreaterThanOrEqual(1);
      expect(p.pricing).toBe('on-demand');
      expect(p.effectivePerHourUsd).toBe(p.onDemandPerHourUsd);
    }
    expect(gpuPricePerHour(c.instances.get('ml.g5.12xlarge')!)).toBeCloseTo(7.09 / 4, 9);
  });
});

describe('an override file', () => {
  it.each([
    ['a price override keeps the other fields', 'instance_types:\n  - { name: ml.g5.xlarge, price_per_hour: 2 }\n', 'ml.g5.xlarge', { onDemandPerHourUsd: 2, effectivePerHourUsd: 2, gpuCount: 1, gpuModel: 'NVIDIA A10G', pricing: 'on-demand' }],
    ['a new instance type', 'instance_types:\n  - { name: my-box, price_per_hour: 3, gpus: 2, gpu_model: NVIDIA L4, gpu_memory_gib: 24 }\n', 'my-box', { provider: 'custom', gpuCount: 2, effectivePerHourUsd: 3 }],
    ['a provider discount, reserved by default', 'discounts:\n  - { provider: aws, discount: 0.25 }\n', 'ml.g5.xlarge', { discount: 0.25, pricing: 'reserved', effectivePerHourUsd: 1.408 * 0.75 }],
    ['the file pricing kind', 'pricing: spot\ndiscounts:\n  - { provider: gcp, discount: 0.6 }\n', 'a2-highgpu-1g', { discount: 0.6, pricing: 'spot' }],
    ['a type discount wins over the provider one', 'discounts:\n  - { provider: aws, discount: 0.25 }\n  - { instance_type: ml.g5.xlarge, discount: 0.5, pricing: spot }\n', 'ml.g5.xlarge', { discount: 0.5, pricing: 'spot' }],
    ['other providers are untouched', 'discounts:\n  - { provider: aws, discount: 0.25 }\n', 'a2-highgpu-1g', { discount: 0, pricing: 'on-demand' }],
  ])('%s', (_name, text, type, want) => {
    expect(parsePriceCatalog(text, 'prices.yml').instances.get(type)).toMatchObject(want);
  });

  it('overrides the date and region', () => {
    const c = parsePriceCatalog('taken_on: 2026-03-01\nregion: eu-west-1\n', 'p.yml');
    expect([c.takenOn, c.region]).toEqual(['2026-03-01', 'eu-west-1']);
  });

  it('layers over a base without changing it', () => {
    const base = parsePriceCatalog('discounts:\n  - { instance_type: ml.g5.xlarge, discount: 0.5 }\n', 'a.yml');
    const next = parsePriceCatalog('instance_types:\n  - { name: ml.g5.xlarge, price_per_hour: 2 }\n', 'b.yml', base);
    expect(next.instances.get('ml.g5.xlarge')).toMatchObject({ onDemandPerHourUsd: 2, effectivePerHourUsd: 1, discount: 0.5 });
    expect(base.instances.get('ml.g5.xlarge')?.onDemandPerHourUsd).toBe(1.408);
  });
});

describe('a bad price catalog', () => {
  const nested = `x: ${'['.repeat(500)}${']'.repeat(500)}\n`;
  // Billion laughs: nine levels of nine aliases each. Read lazily, it fails at the first item.
  const letters = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
  const bomb = ['instance_types:', '  - &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]', ...letters.slice(1).map((l, i) => `  - &${l} [${Array(9).fill(`*${letters[i]}`).join(', ')}]`), ''].join('\n');
  it.each([
    ['an unknown top-level field', 'prices:\n  x: 1\n', /^p\.yml:1:\d+: prices: unknown field "prices" in the price catalog/],
    ['an unknown instance field', 'instance_types:\n  - { name: x, price: 1 }\n', /^p\.yml:2:16: instance_types\[0\]\.price: unknown field "price" in an instance type/],
    ['a negative price', 'instance_types:\n  - name: ml.g5.xlarge\n    price_per_hour: -1\n', /^p\.yml:3:21: instance_types\[0\]\.price_per_hour: price_per_hour must be at least 0, not -1$/],
    ['a non-finite price', 'instance_types:\n  - { name: ml.g5.xlarge, price_per_hour: .inf }\n', /price_per_hour must be finite/],
    ['a price as a string', 'instance_types:\n  - { name: ml.g5.xlarge, price_per_hour: "1.2" }\n', /^p\.yml:2:43: .*price_per_hour must be a number$/],
    ['no GPU', 'instance_types:\n  - { name: x, price_per_hour: 1, gpus: 0, gpu_model: L4, gpu_memory_gib: 24 }\n', /gpus must be at least 1, not 0/],
    ['half a GPU', 'instance_types:\n  - { name: x, price_per_hour: 1, gpus: 0.5, gpu_model: L4, gpu_memory_gib: 24 }\n', /gpus must be a whole number/],
    ['a new type missing fields', 'instance_types:\n  - { name: x, price_per_hour: 1 }\n', /^p\.yml:2:5: instance_types\[0\]: new instance type "x" needs gpus$/],
    ['a duplicate instance type', 'instance_types:\n  - { name: ml.g5.xlarge, price_per_hour: 2 }\n  - { name: ml.g5.xlarge, price_per_hour: 3 }\n', /^p\.yml:3:13: .*duplicate instance type "ml.g5.xlarge"$/],
    ['a discount of 1', 'discounts:\n  - { provider: aws, discount: 1 }\n', /discount must be below 1, not 1$/],
    ['a negative discount', 'discounts:\n  - { provider: aws, discount: -0.1 }\n', /discount must be at least 0/],
    ['a discount naming both', 'discounts:\n  - { provider: aws, instance_type: g5.xlarge, discount: 0.1 }\n', /names exactly one of instance_type and provider/],
    ['a discount for an unknown type', 'discounts:\n  - { instance_type: nope, discount: 0.1 }\n', /discount for unknown instance type "nope"/],
    ['an unknown pricing kind', 'pricing: cheap\n', /^p\.yml:1:10: pricing: pricing must be one of on-demand, reserved, spot, not "cheap"$/],
    ['an unknown provider', 'instance_types:\n  - { name: x, provider: ibm, price_per_hour: 1, gpus: 1, gpu_model: L4, gpu_memory_gib: 24 }\n', /provider must be one of aws, gcp, azure, custom/],
    ['a bad date', 'taken_on: yesterday\n', /taken_on must be a date YYYY-MM-DD/],
    ['a list at the top', '- 1\n', /^p\.yml:1:1: the price catalog must be a map$/],
    ['instance types as a map', 'instance_types:\n  x: 1\n', /^p\.yml:2:3: instance_types: instance_types must be a list$/],
    ['a YAML syntax error', 'instance_types: [\n', /^p\.yml:\d+:1: /],
    ['a duplicate key', 'region: a\nregion: b\n', /^p\.yml:2:1: .*[Mm]ap keys must be unique/],
    ['hostile nesting', nested, /^p\.yml:1:1: yaml: nested deeper than 100 levels$/],
    ['a 10 MB file', `region: x\n# ${'x'.repeat(10 * 1024 * 1024)}\n`, /^p\.yml:1:1: file is \d+ bytes, more than the 1048576 a catalog may have$/],
    ['an alias bomb', bomb, /^p\.yml:2:8: instance_types\[0\]: an instance type must be a map$/],
  ])('%s', (_name, text, want) => {
    let err: unknown;
    try {
      parsePriceCatalog(text, 'p.yml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(want);
  });
});
