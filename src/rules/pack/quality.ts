/**
 * The pack's quality alerts: score floors per dimension, and the two combined rules that only a view
 * of quantity and quality together can raise: "latency within SLO while safety or the composite
 * score falls" and "quality unchanged while the cost per 1M tokens rises".
 */
import { errorBudget, objectiveLabels } from '../slo/index.js';
import type { AlertingRuleSpec } from '../types.js';
import { packAlert } from './alerts.js';
import type { RulePackOptions } from './options.js';

const MIN = 60_000;
/** A quality score per deployment and dimension (the exporter's other labels dropped). */
const score = (dimension: string) => `avg by (endpoint, component, dimension) (llm_quality_score{dimension=${JSON.stringify(dimension)}})`;

/** Score floors: safety, relevance and composite, each for 5 minutes. */
export function qualityFloorAlerts(o: Required<RulePackOptions>): AlertingRuleSpec[] {
  const floors = [
    { alert: 'QualitySafetyLow', dimension: 'safety', floor: o.quality.safety, severity: 'page' as const },
    { alert: 'QualityRelevanceLow', dimension: 'relevance', floor: o.quality.relevance, severity: 'ticket' as const },
    { alert: 'QualityCompositeLow', dimension: 'composite', floor: o.quality.composite, severity: 'ticket' as const },
  ];
  return floors.map((f) =>
    packAlert(o, f.alert, `${score(f.dimension)} < ${f.floor}`, {
      forMs: 5 * MIN,
      severity: f.severity,
      summary: `{{ $labels.component }} ${f.dimension} score {{ $value | printf "%.2f" }} is under ${f.floor}`,
      description: `The judged ${f.dimension} score of the component's sampled responses stayed under ${f.floor} for 5 minutes.`,
    }),
  );
}

/**
 * The two combined rules. "Latency within SLO" is the pack's first TTFT objective: its 1h error
 * ratio at most its error budget. Cost per 1M tokens is the catalog's
 * `llm_cost_per_million_tokens_dollars`, which the cost module (issue 19) writes; nothing produces
 * it yet, so that rule is proven by `promtool test rules`, not by the simulator.
 */
export function combinedAlerts(o: Required<RulePackOptions>): AlertingRuleSpec[] {
  const ttft = o.slos.find((s) => s.slo === 'ttft');
  const out: AlertingRuleSpec[] = [];
  if (ttft !== undefined) {
    const labels = Object.entries(objectiveLabels(ttft)).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
    const withinSlo = `slo:sli_error:ratio_rate1h{${labels.join(', ')}} <= ${errorBudget(ttft)}`;
    const falling = `max by (endpoint, component, dimension) (delta(llm_quality_score{dimension=~"safety|composite"}[30m])) < -${o.qualityFall}`;
    out.push(
      packAlert(o, 'QualityFallingLatencyNormal', `(${falling}) and on (endpoint, component) (${withinSlo})`, {
        forMs: 5 * MIN,
        severity: 'ticket',
        summary: '{{ $labels.component }} {{ $labels.dimension }} score changed by {{ $value | printf "%.2f" }} in 30 min while latency is within its SLO',
        description: `The {{ $labels.dimension }} score fell by more than ${o.qualityFall} over 30 minutes while TTFT stayed within its objective (${ttft.objective} under ${ttft.thresholdSeconds ?? ''} s over 1h): the model's answers changed, not the infrastructure. Look at model, prompt or adapter changes.`,
      }),
    );
  }
  const cost = (offset: string) => `max by (endpoint, component) (llm_cost_per_million_tokens_dollars${offset})`;
  // Against the same hour a day earlier: cost per token follows demand through the day (the GPUs
  // are paid for either way), so an hour-over-hour rise is every evening's dip in traffic.
  const unchanged = `max by (endpoint, component) (abs(delta(llm_quality_score{dimension="composite"}[1h]))) < ${o.qualityFall / 2}`;
  out.push(
    packAlert(o, 'CostRisingQualityUnchanged', `(${cost('')} / ${cost(' offset 1d')} > ${o.costRiseFactor}) and on (endpoint, component) (${unchanged})`, {
      forMs: 30 * MIN,
      severity: 'ticket',
      summary: '{{ $labels.component }} costs {{ $value | printf "%.2f" }}× per 1M tokens what it did a day ago, for the same quality',
      description: `Cost per million tokens rose above ${o.costRiseFactor}× its value at the same time a day earlier and stayed there for 30 minutes while the composite quality score moved less than ${o.qualityFall / 2}: the same answers got more expensive (idle GPUs, lower batch efficiency, a pricier instance type).`,
    }),
  );
  return out;
}
