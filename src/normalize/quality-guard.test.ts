import { describe, expect, it } from 'vitest';
import { Labels } from '../model/index.js';
import { MemoryStorage } from '../storage/testing/index.js';
import { QualityNamespaceError, QualityNamespaceGuard, qualityRefusal } from './index.js';

const Q = { __name__: 'llm_quality_score', model: 'llama', component: 'llama-a', endpoint: 'chat', dimension: 'safety' };

describe('qualityRefusal', () => {
  it.each([
    ['a quality series of an external evaluator', { ...Q, job: 'my-evaluator', instance: 'eval-1:9100' }, null],
    ['the simulator’s quality exporter', { ...Q, job: 'sim-quality', instance: 'quality-llama-a' }, null],
    ['its judge token counter', { __name__: 'llm_quality_judge_tokens_total', job: 'sim-quality', instance: 'quality-llama-a', model: 'm', component: 'c', endpoint: 'e', token_type: 'input' }, null],
    ['its duration histogram', { __name__: 'llm_quality_evaluation_duration_seconds_bucket', job: 'sim-quality', instance: 'q', model: 'm', component: 'c', dimension: 'safety', le: '0.5' }, null],
    ['a quality series pushed over OTLP', { ...Q, job: 'otel-collector' }, null],
    ['an infrastructure series with gpu', { __name__: 'gpu_utilization_ratio', gpu: '0', job: 'dcgm-exporter' }, null],
    ['a quality series with gpu', { ...Q, gpu: '0' }, 'label'],
    ['a quality series with replica', { ...Q, replica: 'r-1' }, 'label'],
    ['a quality series with az', { ...Q, az: 'us-east-1a' }, 'label'],
    ['a quality series with instance_type', { ...Q, instance_type: 'g5.xlarge' }, 'label'],
    ['a quality series with engine', { ...Q, engine: 'vllm' }, 'label'],
    ['a quality series with DCGM’s UUID', { ...Q, UUID: 'GPU-1' }, 'label'],
    ['a quality series with pod', { ...Q, pod: 'p' }, 'label'],
    ['a quality series scraped from vLLM', { ...Q, job: 'vllm' }, 'source'],
    ['a quality series scraped from the DCGM exporter', { ...Q, job: 'dcgm-exporter' }, 'source'],
    ['a quality series scraped from DJL', { ...Q, job: 'djl-lmi' }, 'source'],
    ['a quality series from the gateway', { ...Q, job: 'gateway' }, 'source'],
  ])('%s', (_name, labels, want) => {
    expect(qualityRefusal(Labels.from(labels))?.reason ?? null).toBe(want);
  });

  it('refuses every quality series of an infrastructure source', () => {
    expect(qualityRefusal(Labels.from(Q), true)?.reason).toBe('source');
    expect(qualityRefusal(Labels.from({ __name__: 'llm_client_requests_total' }), true)).toBeNull();
  });
});

describe('QualityNamespaceGuard', () => {
  it('refuse: append throws a 400 error, the appender stays usable and commits the rest', async () => {
    const inner = new MemoryStorage();
    const guard = new QualityNamespaceGuard(inner, { mode: 'refuse' });
    const app = guard.appender();
    app.append(0, Labels.from({ __name__: 'up', job: 'x' }), 1, 1);
    let err: unknown;
    try {
      app.append(0, Labels.from({ ...Q, gpu: '0' }), 1, 0.9);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(QualityNamespaceError);
    expect((err as QualityNamespaceError).spec.status).toBe(400);
    expect((err as Error).message).toMatch(/label "gpu" is infrastructure-only/);
    await app.commit();
    expect(inner.dump()).toEqual(['up{job="x"} 1']);
    expect(guard.stats.refused).toEqual({ source: 0, label: 1 });
  });

  it('drop: the sample is skipped and counted, the rest written', async () => {
    const inner = new MemoryStorage();
    const guard = new QualityNamespaceGuard(inner, { mode: 'drop' });
    const app = guard.appender();
    expect(app.append(0, Labels.from({ ...Q, job: 'vllm' }), 1, 0.9)).toBe(0);
    app.append(0, Labels.from({ ...Q, job: 'sim-quality' }), 1, 0.9);
    await app.commit();
    expect(inner.dump()).toHaveLength(1);
    expect(guard.stats.refused).toEqual({ source: 1, label: 0 });
  });
});
