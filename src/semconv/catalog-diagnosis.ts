import type { MetricSpec } from './types.js';

/**
 * What the online diagnosis writes (src/diagnose/online/series.ts): one series per open insight,
 * and the confidence of each of its best causes. Labels beside the scope's (`endpoint`, `component`).
 */
export const DIAGNOSIS_METRICS = [
  {
    name: 'llm_diagnosis_insight_open',
    type: 'gauge',
    unit: '',
    help: 'An insight of the online diagnosis: 1 while its symptom stays regressed in its scope, a stale marker once it resolves. insight is its id, symptom one of ttft, itl, e2e, tps, errors.',
    labels: ['insight', 'symptom'],
    stability: 'experimental',
    sources: [],
    producer: 'diagnose',
  },
  {
    name: 'llm_diagnosis_cause_confidence_ratio',
    type: 'gauge',
    unit: 'ratio',
    help: "The confidence (0-1) of one of an open insight's three best causes (cause: kv-cache-pressure, gpu-memory-saturation, ..., load, none).",
    labels: ['insight', 'symptom', 'cause'],
    stability: 'experimental',
    sources: [],
    producer: 'diagnose',
  },
] as const satisfies readonly MetricSpec[];
