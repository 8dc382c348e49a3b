import { describe, expect, it } from 'vitest';
import { QualityInputError } from './errors.js';
import { parseScoreBatchJson } from './json-text.js';
import { MAX_SCORES_PER_BATCH, checkScores, validateScoreBatch } from './validate.js';

const NOW_MS = Date.UTC(2026, 0, 5, 12, 0, 0);
const NOW_S = NOW_MS / 1000;
const good = { model: 'llama-3-8b', component: 'llama-a', dimension: 'safety', score: 0.93, evaluator: 'judge:gpt', request_id: 'r-1', time: NOW_S - 5 };

/** The refusal of `text`: its code and first problem, or 'ok' with the scores' count. */
function check(text: string): string {
  try {
    return `ok ${validateScoreBatch(parseScoreBatchJson(text), NOW_MS).length}`;
  } catch (e) {
    if (!(e instanceof QualityInputError)) throw e;
    const p = e.problems[0];
    return `${e.code} ${p.index} ${p.field}: ${p.message}`;
  }
}
const batch = (...entries: unknown[]): string => JSON.stringify({ scores: entries });
const withField = (k: string, v: unknown): string => batch({ ...good, [k]: v });

describe('validateScoreBatch', () => {
  it('takes a good batch, with time in ms and request_id as requestId', () => {
    const [s] = validateScoreBatch(JSON.parse(batch(good)), NOW_MS);
    expect(s).toEqual({ model: 'llama-3-8b', component: 'llama-a', dimension: 'safety', score: 0.93, evaluator: 'judge:gpt', requestId: 'r-1', tMs: NOW_MS - 5000 });
    expect(check(batch())).toBe('ok 0');
    expect(check(batch({ ...good, request_id: undefined, score: 0 }, { ...good, score: 1, time: NOW_S + 60 }))).toBe('ok 2');
  });

  it.each([
    ['not JSON', 'scores: 1', /^ERR_QUALITY_INVALID_SCORES -1 : the body is not JSON/],
    ['NaN as a literal', '{"scores":[{"score":NaN}]}', /not JSON/],
    ['an array body', '[]', /must be a JSON object/],
    ['null body', 'null', /must be a JSON object/],
    ['scores missing', '{}', / -1 scores: is missing/],
    ['scores an object', '{"scores":{}}', /scores: must be an array, not an object/],
    ['an unknown top-level field', '{"scores":[],"extra":1}', / -1 extra: unknown field/],
    ['an entry that is a number', batch(3), / 0 : must be an object, not a number/],
    ['score 1.5', withField('score', 1.5), / 0 score: 1.5 is not in \[0, 1\]/],
    ['score -0.1', withField('score', -0.1), /score: -0.1 is not in/],
    ['score a string', withField('score', '0.5'), /score: must be a number, not a string/],
    ['score null', withField('score', null), /score: must be a number, not null/],
    ['score 1e999 (Infinity)', batch(good).replace('0.93', '1e999'), /score: Infinity is not in/],
    ['an unknown dimension', withField('dimension', 'helpfulness'), /dimension: must be one of accuracy, relevance, safety, professional_tone, composite, not "helpfulness"/],
    ['a future time', withField('time', NOW_S + 61), /time: is 61.000 s in the future/],
    ['a time too old', withField('time', NOW_S - 31 * 60), /time: is 31.0 min in the past, more than the 30 min/],
    ['time in ms by mistake', withField('time', NOW_MS), /in the future/],
    ['time a string', withField('time', '2026-01-05T12:00:00Z'), /time: must be Unix seconds/],
    ['model empty', withField('model', ''), /model: must not be empty/],
    ['model a number', withField('model', 7), /model: must be a string, not a number/],
    ['model huge', withField('model', 'm'.repeat(100_000)), /model: is 100000 characters long, more than the limit of 128/],
    ['component with a newline', withField('component', 'a\nb'), /component: must not contain control characters/],
    ['evaluator with a lone surrogate', withField('evaluator', '\ud800x'), /evaluator: is not well-formed/],
    ['request_id an object', withField('request_id', {}), /request_id: must be a string, not an object/],
    ['evaluator missing', withField('evaluator', undefined), /evaluator: is missing/],
    ['an unknown entry field', withField('dimention', 'safety'), / 0 dimention: unknown field/],
    ['a __proto__ key', batch(good).replace('{"model"', '{"__proto__":{"polluted":1},"model"'), / 0 __proto__: unknown field/],
    ['a constructor key at the top', '{"scores":[],"constructor":{"prototype":{"x":1}}}', /constructor: unknown field/],
    ['a duplicate key', batch(good).replace('"score":0.93', '"score":0.93,"score":5'), /the key "score" appears twice in one object/],
    ['a duplicate key written with an escape', batch(good).replace('"score":0.93', '"score":0.93,"\\u0073core":0.1'), /the key "score" appears twice/],
    ['deep nesting', `{"scores":[${'['.repeat(10_000)}${']'.repeat(10_000)}]}`, /nests objects and arrays deeper than 8 levels/],
    ['nesting in a field', withField('model', { a: { b: 1 } }), /model: must be a string, not an object/],
  ])('refuses %s', (_name, text, want) => {
    expect(check(text)).toMatch(want);
  });

  it('lists every problem of the batch, with indexes', () => {
    try {
      validateScoreBatch(JSON.parse(batch(good, { ...good, score: 2 }, { ...good, dimension: 'x', evaluator: '' })), NOW_MS);
      expect.unreachable();
    } catch (e) {
      expect((e as QualityInputError).problems.map((p) => `${p.index}.${p.field}`)).toEqual(['1.score', '2.dimension', '2.evaluator']);
      expect((e as QualityInputError).message).toBe('scores[1].score: 2 is not in [0, 1] (and 2 more)');
      expect((e as QualityInputError).spec.status).toBe(400);
    }
  });

  it('refuses more than the batch limit as too large (413), before looking at entries', () => {
    const json = { scores: Array.from({ length: 100_000 }, () => ({})) };
    expect(() => validateScoreBatch(json, NOW_MS)).toThrow(QualityInputError);
    try {
      validateScoreBatch(json, NOW_MS);
    } catch (e) {
      expect((e as QualityInputError).code).toBe('ERR_QUALITY_BATCH_TOO_LARGE');
      expect((e as QualityInputError).spec.status).toBe(413);
    }
    expect(validateScoreBatch({ scores: Array.from({ length: MAX_SCORES_PER_BATCH }, () => good) }, NOW_MS)).toHaveLength(MAX_SCORES_PER_BATCH);
  });

  it('stops at 100 problems', () => {
    try {
      validateScoreBatch({ scores: Array.from({ length: 500 }, () => ({ ...good, score: 9 })) }, NOW_MS);
    } catch (e) {
      expect((e as QualityInputError).problems).toHaveLength(100);
    }
  });
});

describe('checkScores', () => {
  it.each([
    [{ score: Number.NaN }, 'score'],
    [{ tMs: NOW_MS + 0.5 }, 'time'],
    [{ dimension: 'tone' }, 'dimension'],
    [{ model: '' }, 'model'],
  ])('refuses %o', (patch, field) => {
    const s = { ...validateScoreBatch(JSON.parse(batch(good)), NOW_MS)[0], ...patch } as never;
    expect(() => checkScores([s], NOW_MS)).toThrow(new RegExp(`^scores\\[0\\]\\.${field}:`));
  });
});
