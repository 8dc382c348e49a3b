/**
 * Insights, latency: token latency at the chosen quantile (`$quantile`) from the client's side
 * (Invoke: the whole request; Streaming: first chunk and the gaps between chunks) and the
 * engine's, model latency against platform overhead, and where a request's time goes (queue,
 * prefill, decode).
 */
import { mean, quantile } from './queries.js';
import type { Panel, Row } from './types.js';

const Q = '$quantile';

const FRONT_DOOR_HINT = 'Needs a front door: the Infersight gateway, or a per-component front-door exporter such as the demo fleet\'s.';

const TOKEN_LATENCY: Panel = {
  id: 'token-latency',
  title: 'Token latency',
  description:
    'Latency at the chosen quantile per inference component, taken per bucket layout (per engine; per front door, by job) and the highest shown, so layouts are never mixed. Invoke: the whole request as the client waited for it; Streaming: time to the first chunk and between chunks at the client; Engine: the same measured inside the engine.',
  viz: 'timeseries',
  unit: 'seconds',
  queries: [],
  tabs: [
    {
      id: 'invoke',
      title: 'Invoke',
      queries: [
        // A front door that does not split by `stream` (no label) counts here too.
        { refId: 'client_e2e', legend: '{{component}} client', expr: quantile(Q, 'llm_client_request_duration_seconds', ['component'], 'stream!="true"') },
        { refId: 'invoke_engine_e2e', legend: '{{component}} engine', expr: quantile(Q, 'llm_e2e_request_latency_seconds', ['component']) },
      ],
    },
    {
      id: 'streaming',
      title: 'Streaming',
      queries: [
        // Streams only; a front door without the `stream` label counts here too.
        { refId: 'client_ttft', legend: '{{component}} TTFT', expr: quantile(Q, 'llm_client_time_to_first_token_seconds', ['component'], 'stream!="false"') },
        { refId: 'client_itl', legend: '{{component}} ITL', expr: quantile(Q, 'llm_client_inter_token_latency_seconds', ['component'], 'stream!="false"') },
      ],
    },
    {
      id: 'engine',
      title: 'Engine',
      queries: [
        { refId: 'engine_ttft', legend: '{{component}} TTFT', expr: quantile(Q, 'llm_time_to_first_token_seconds', ['component']) },
        { refId: 'engine_itl', legend: '{{component}} ITL', expr: quantile(Q, 'llm_inter_token_latency_seconds', ['component']) },
        { refId: 'engine_tpot', legend: '{{component}} TPOT', expr: quantile(Q, 'llm_time_per_output_token_seconds', ['component']) },
        { refId: 'engine_e2e', legend: '{{component}} E2E', expr: quantile(Q, 'llm_e2e_request_latency_seconds', ['component']) },
      ],
    },
  ],
  width: 12,
  height: 9,
  emptyHint: `The Invoke and Streaming tabs need a front door. ${FRONT_DOOR_HINT}`,
};

const MODEL_VS_OVERHEAD: Panel = {
  id: 'model-vs-overhead',
  title: 'Model latency vs overhead',
  description:
    'Time the model server took (as the gateway measured it, else the engine E2E latency) against the platform overhead the front door adds on top (routing, auth, network), at the chosen quantile: the highest over the bucket layouts (engines, front doors), an upper bound of the whole fleet\'s quantile.',
  viz: 'timeseries',
  unit: 'seconds',
  queries: [
    {
      refId: 'model',
      legend: 'model latency',
      expr: `${quantile(Q, 'llm_client_model_latency_seconds')} or ${quantile(Q, 'llm_e2e_request_latency_seconds')}`,
    },
    { refId: 'overhead', legend: 'overhead', expr: quantile(Q, 'llm_client_overhead_latency_seconds') },
  ],
  width: 12,
  height: 9,
  emptyHint: `The overhead line needs a front door. ${FRONT_DOOR_HINT}`,
};

const PHASES: Panel = {
  id: 'phase-timing',
  title: 'Request phases',
  description:
    'Mean seconds a request spends waiting in the queue, in prefill and in decode, per inference component: means add up to the request time where quantiles do not. A growing queue points at capacity, a growing prefill at longer prompts.',
  viz: 'timeseries',
  unit: 'seconds',
  queries: [
    { refId: 'queue', legend: '{{component}} queue', expr: mean('llm_request_queue_time_seconds', ['component']) },
    { refId: 'prefill', legend: '{{component}} prefill', expr: mean('llm_request_prefill_time_seconds', ['component']) },
    { refId: 'decode', legend: '{{component}} decode', expr: mean('llm_request_decode_time_seconds', ['component']) },
  ],
  width: 24,
  height: 8,
  emptyHint: 'Prefill and decode times come from vLLM and TensorRT-LLM; SGLang and DJL/LMI report the queue time only.',
};

/** The latency row. */
export const LATENCY_ROW: Row = { id: 'latency', title: 'Token latency', panels: [TOKEN_LATENCY, MODEL_VS_OVERHEAD, PHASES] };
