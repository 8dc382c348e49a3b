/**
 * The sample browser of the Quality page: filters (model, dimension, score range, flag), the
 * sampled pairs of the page's time range (`/api/v1/quality/samples`), and the detail of one
 * (`/api/v1/quality/samples/<id>`): the prompt, the response and every evaluation with its detail.
 * Every text a model or a judge wrote is rendered as React text (escaped), never as HTML: a
 * response carrying `<script>` or `<img onerror>` shows that markup literally and runs nothing.
 */
import { useState, type ReactNode } from 'react';
import type { SampleWire } from '../../../../src/query/index.js';
import { api } from '../../api/api-client.js';
import { useApiResource } from '../../api/use-api-resource.js';
import { formatDateTime, formatValue } from '../../format/units.js';
import { DIMENSIONS, FLAGS, NO_FILTERS, excerpt, failedEvaluations, flagsOf, sampleParams, scoresOf, type SampleFilters } from './quality-model.js';

/** The list of pairs, or why there is none. */
export function SampleList({ samples, selected, onSelect }: { samples: readonly SampleWire[]; selected: string; onSelect: (id: string) => void }): ReactNode {
  if (samples.length === 0) return <p className="muted" data-testid="samples-empty">No sampled pairs match in this time range.</p>;
  return (
    <table className="sample-list" data-testid="sample-list">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Model</th>
          <th scope="col">Component</th>
          <th scope="col">Scores</th>
          <th scope="col">Flags</th>
          <th scope="col">Response</th>
        </tr>
      </thead>
      <tbody>
        {samples.map((s) => (
          <tr key={s.pair.id} data-testid="sample-row" data-sample={s.pair.id} aria-selected={s.pair.id === selected} onClick={() => onSelect(s.pair.id)}>
            <td className="num">
              <button type="button" className="btn small ghost" onClick={() => onSelect(s.pair.id)}>
                {formatDateTime(s.pair.time * 1000, true)}
              </button>
            </td>
            <td>{s.pair.model}</td>
            <td>{s.pair.component}</td>
            <td className="num">{scoresOf(s.evaluations).map(([d, v]) => `${d} ${formatValue(v, 'ratio')}`).join(', ') || '–'}</td>
            <td>
              {flagsOf(s.evaluations).map((f) => (
                <span key={f} className="badge warning">
                  {f}
                </span>
              ))}
            </td>
            <td className="sample-excerpt">{excerpt(s.pair.response)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One pair: its texts and every evaluation, as text. */
export function SampleDetail({ sample }: { sample: SampleWire }): ReactNode {
  const p = sample.pair;
  return (
    <article className="sample-detail" data-testid="sample-detail" data-sample={p.id} aria-label={`Sample ${p.id}`}>
      <h3>
        {p.model} · {p.component} · {formatDateTime(p.time * 1000)}
      </h3>
      <p className="muted">
        HTTP {p.status} · finish {p.finishReason ?? '–'} · {p.promptTokens ?? '?'} prompt / {p.completionTokens ?? '?'} completion tokens · end to end {formatValue(p.e2eSeconds, 'seconds')}
        {p.ttftSeconds === null ? '' : ` · TTFT ${formatValue(p.ttftSeconds, 'seconds')}`}
        {failedEvaluations(sample) > 0 ? ` · ${failedEvaluations(sample)} failed evaluation(s)` : ''}
      </p>
      <h4>Prompt</h4>
      <pre className="sample-text" data-testid="sample-prompt">
        {p.prompt}
      </pre>
      <h4>Response</h4>
      <pre className="sample-text" data-testid="sample-response">
        {p.response}
      </pre>
      <h4>Evaluations</h4>
      <table className="evaluation-list" data-testid="evaluation-list">
        <thead>
          <tr>
            <th scope="col">Evaluator</th>
            <th scope="col">Dimension</th>
            <th scope="col">Score</th>
            <th scope="col">Flag</th>
            <th scope="col">Detail</th>
            <th scope="col">Took</th>
          </tr>
        </thead>
        <tbody>
          {sample.evaluations.map((e, i) => (
            <tr key={`${e.evaluator}-${i}`} data-testid="evaluation-row">
              <td className="mono">{e.evaluator}</td>
              <td>{e.dimension ?? '–'}</td>
              <td className="num">{e.score === null ? '–' : formatValue(e.score, 'ratio')}</td>
              <td>{e.flag ?? ''}</td>
              <td className="evaluation-detail" data-testid="evaluation-detail">
                {e.error === null ? e.detail : `failed: ${e.error}`}
              </td>
              <td className="num">
                {formatValue(e.durationSeconds, 'seconds')}
                {e.judgeTokens === null ? '' : ` · ${e.judgeTokens.input + e.judgeTokens.output} tokens`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}

/** The filter form. */
function FilterBar({ filters, onChange }: { filters: SampleFilters; onChange: (f: SampleFilters) => void }): ReactNode {
  const set = (k: keyof SampleFilters) => (e: { target: { value: string } }) => onChange({ ...filters, [k]: e.target.value });
  return (
    <form className="sample-filters" aria-label="Sample filters" data-testid="sample-filters" onSubmit={(e) => e.preventDefault()}>
      <label>
        Model <input type="text" value={filters.model} onChange={set('model')} data-testid="filter-model" placeholder="any" />
      </label>
      <label>
        Dimension{' '}
        <select value={filters.dimension} onChange={set('dimension')} data-testid="filter-dimension">
          <option value="">any</option>
          {DIMENSIONS.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </select>
      </label>
      <label>
        Score from <input type="number" min={0} max={1} step={0.05} value={filters.minScore} onChange={set('minScore')} data-testid="filter-min-score" />
      </label>
      <label>
        to <input type="number" min={0} max={1} step={0.05} value={filters.maxScore} onChange={set('maxScore')} data-testid="filter-max-score" />
      </label>
      <label>
        Flag{' '}
        <select value={filters.flag} onChange={set('flag')} data-testid="filter-flag">
          <option value="">any</option>
          {FLAGS.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="btn small ghost" onClick={() => onChange(NO_FILTERS)}>
        Clear
      </button>
    </form>
  );
}

/** The browser over `[startMs, endMs]`. */
export function SampleBrowser({ startMs, endMs }: { startMs: number; endMs: number }): ReactNode {
  const [filters, setFilters] = useState<SampleFilters>(NO_FILTERS);
  const [selected, setSelected] = useState('');
  const params = sampleParams(filters, startMs, endMs);
  const list = useApiResource(`quality-samples ${JSON.stringify(params)}`, (signal) => api().qualitySamples(params, signal));
  const detail = useApiResource(`quality-sample ${selected}`, (signal) => api().qualitySample(selected, signal), selected !== '');
  return (
    <section className="dash-row sample-browser" aria-labelledby="row-samples" data-testid="sample-browser">
      <h2 id="row-samples" className="row-title">
        Sampled responses
      </h2>
      <FilterBar filters={filters} onChange={setFilters} />
      {list?.error !== undefined && (
        <p className="page-error" role="alert" data-testid="samples-error">
          {list.error}
        </p>
      )}
      <div className="sample-columns">
        <div>{list?.value !== undefined && <SampleList samples={list.value.samples} selected={selected} onSelect={setSelected} />}</div>
        <div>
          {selected === '' && <p className="muted">Pick a sample to read its prompt, response and evaluations.</p>}
          {detail?.error !== undefined && (
            <p className="page-error" role="alert">
              {detail.error}
            </p>
          )}
          {selected !== '' && detail?.value !== undefined && detail.value.pair.id === selected && <SampleDetail sample={detail.value} />}
        </div>
      </div>
    </section>
  );
}
