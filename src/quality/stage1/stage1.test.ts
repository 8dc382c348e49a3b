import { describe, expect, test } from 'vitest';
import type { SampledPair, Stage1Flag } from '../types.js';
import { LengthTracker } from './length.js';
import { runStage1, STAGE1_CHECKS, type Stage1Options } from './stage1.js';

const T0 = Date.UTC(2026, 0, 5, 9);

function pair(over: Partial<SampledPair> = {}): SampledPair {
  return {
    id: 'p1',
    tMs: T0,
    endpoint: 'chat',
    component: 'c',
    model: 'm',
    prompt: 'user: Explain how the KV cache works in a transformer and why it is useful for serving.',
    response: 'The KV cache keeps the keys and values of past tokens, so that each new token does not recompute them. It is the reason decoding is memory-bound.',
    status: 200,
    finishReason: 'stop',
    promptTokens: 20,
    completionTokens: 30,
    wantJson: false,
    ttftS: 0.2,
    e2eS: 1.5,
    ...over,
  };
}

/** The flags stage 1 raises on `p`. */
function flags(p: SampledPair, o: Stage1Options = {}): Stage1Flag[] {
  return runStage1(p, o).flatMap((e) => (e.flag === null ? [] : [e.flag]));
}

const MB = 1 << 20;

describe('runStage1', () => {
  test('one evaluation per check, stage 1, scored 1 or 0', () => {
    const evs = runStage1(pair({ response: '' }));
    expect(evs.map((e) => e.evaluator)).toEqual(STAGE1_CHECKS.map((c) => `stage1:${c}`));
    for (const e of evs) {
      expect(e).toMatchObject({ pairId: 'p1', stage: 1, dimension: null, error: null, judgeTokens: null, tMs: T0 });
      expect(e.score).toBe(e.flag === null ? 1 : 0);
      expect(e.detail.length).toBeGreaterThan(0);
    }
  });

  test.each<[string, Partial<SampledPair>, Stage1Flag[]]>([
    ['a good answer', {}, []],
    ['empty', { response: '', completionTokens: 0 }, ['empty']],
    ['whitespace and zero-width only', { response: ' \n\t\u200b\ufeff ' }, ['empty']],
    ['English refusal', { response: "I'm sorry, but I can't help with that request." }, ['refusal']],
    ['typographic apostrophe', { response: 'I can\u2019t help with that.' }, ['refusal']],
    ['German refusal', { prompt: 'user: Wie baue ich eine Bombe? Das ist nicht für die Schule und ich will es wissen.', response: 'Es tut mir leid, aber ich kann dabei nicht helfen, das ist nicht erlaubt und wird auch nicht passieren.' }, ['refusal']],
    ['French refusal', { prompt: 'user: Comment est-ce que je peux faire cela pour le projet et avec les données ?', response: 'Désolé, mais je ne peux pas vous aider avec cette demande, car elle est dangereuse pour les gens.' }, ['refusal']],
    ['Chinese refusal', { prompt: 'user: 请告诉我如何制造危险的东西，我需要详细的步骤说明和材料清单', response: '抱歉，我无法帮助你完成这个请求，这可能会造成伤害。' }, ['refusal']],
    ['a late caveat is no refusal', { response: `${'The cache holds keys and values. '.repeat(20)}I cannot provide exact numbers.` }, []],
    ['finish_reason length', { finishReason: 'length' }, ['truncated']],
    ['no finish reason, cut mid-sentence', { finishReason: null, response: 'The KV cache keeps the keys and values of' }, ['truncated']],
    ['no finish reason, a full sentence', { finishReason: null }, []],
    ['stop mid-sentence is trusted', { response: 'The KV cache keeps the keys and values of past tokens and the' }, []],
    ['JSON cut inside a string', { response: '{"answer": "the cache keeps' }, ['truncated']],
    ['JSON cut with an object open', { response: '{"a": [1, 2, {"b": 3}]', wantJson: true }, ['truncated', 'invalid_json']],
    ['unclosed code block', { response: 'Here:\n```python\nprint(1)\n' }, ['truncated']],
    ['valid JSON asked for', { response: '{"answer": 42, "why": "because"}', wantJson: true }, []],
    ['JSON in a ```json fence', { response: '```json\n{"answer": 42}\n```', wantJson: true }, []],
    ['prose when JSON was asked for', { wantJson: true }, ['invalid_json']],
    ['broken JSON not asked for', { response: '{"a": 1,, }' }, []],
    ['an e-mail address', { response: 'Write to jane.doe+work@example.co.uk for access.' }, ['pii']],
    ['a US phone number', { response: 'Call (555) 123-4567 tomorrow.' }, ['pii']],
    ['an international phone number', { response: 'Call +44 20 7946 0958 tomorrow.' }, ['pii']],
    ['a Luhn-valid card', { response: 'Card: 4111 1111 1111 1111.' }, ['pii']],
    ['a card number failing Luhn', { response: 'Order 4111 1111 1111 1112 shipped.' }, []],
    ['an SSN', { response: 'SSN 123-45-6789 on file.' }, ['pii']],
    ['an impossible SSN area', { response: 'Ticket 666-45-6789 closed.' }, []],
    ['an IPv4 address', { response: 'The host is 10.0.12.7 in the VPC.' }, ['pii']],
    ['a version string', { response: 'Use release v1.2.3.4 of the tool.' }, []],
    ['an OpenAI key shape', { response: 'export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz012345' }, ['pii']],
    ['an AWS access key id', { response: 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE' }, ['pii']],
    ['a private key', { response: '-----BEGIN RSA PRIVATE KEY-----\nMIIE...\n-----END RSA PRIVATE KEY-----' }, ['pii']],
    ['plain numbers', { response: 'In 2023 there were 3 outages and 1,204 requests, 99.9 % of them fine.' }, []],
    ['a Unix timestamp', { response: 'It started at 1735689600 exactly.' }, []],
    ['German answer to an English prompt', { response: 'Der KV-Cache speichert die Schlüssel und die Werte der bisherigen Tokens, damit sie nicht neu berechnet werden müssen.' }, ['language_mismatch']],
    ['Chinese answer to an English prompt', { response: 'KV缓存保存了之前所有词元的键和值，这样每个新词元就不需要重新计算它们。' }, ['language_mismatch']],
    ['a short answer is undetermined', { response: 'Yes.' }, []],
    ['code only is undetermined', { response: 'x = [i * i for i in range(10)]' }, []],
  ])('%s', (_, over, want) => {
    expect(flags(pair(over))).toEqual(want);
  });

  test.each<[string, readonly string[], string, Stage1Flag[]]>([
    ['whole word, any case', ['darn'], 'Well, DARN it.', ['blocklist']],
    ['not inside a longer word', ['darn'], 'The darning needle.', []],
    ['a phrase', ['kill switch'], 'Flip the Kill  Switch? No: flip the kill switch.', ['blocklist']],
    ['a phrase inside words', ['kill switch'], 'overkill switchboard', []],
    ['non-Latin entries', ['запрещено'], 'Это Запрещено здесь.', ['blocklist']],
    ['no entries', [], 'anything', []],
  ])('blocklist: %s', (_, list, response, want) => {
    const p = pair({ response, prompt: 'user: hi' });
    expect(flags(p, { blocklist: list }).filter((f) => f === 'blocklist')).toEqual(want);
  });

  test('the blocklist detail names the terms found', () => {
    const e = runStage1(pair({ response: 'foo and BAR' }), { blocklist: ['bar', 'foo', 'baz'] }).find((x) => x.flag === 'blocklist');
    expect(e?.detail).toBe('blocked terms: "bar", "foo"');
  });

  test('PII details name kinds and counts, never the values', () => {
    const e = runStage1(pair({ response: 'a@example.com, b@example.org, 10.1.2.3' })).find((x) => x.flag === 'pii')!;
    expect(e.detail).toBe('PII patterns: email ×2, ipv4 ×1');
    expect(runStage1(pair({ response: 'host 10.1.2.3.' }), { allowPii: ['ipv4'] }).some((x) => x.flag === 'pii')).toBe(false);
  });

  test('length anomalies against the model’s running distribution', () => {
    const lengths = new LengthTracker({ window: 64, minSamples: 20 });
    const at = (n: number, model = 'm') => runStage1(pair({ completionTokens: n, model }), { lengths }).find((e) => e.evaluator === 'stage1:length_anomaly')!;
    expect(at(100).detail).toContain('baseline still filling');
    for (let i = 0; i < 40; i++) expect(at(90 + (i % 21)).flag).toBeNull();
    expect(at(2000).flag).toBe('length_anomaly');
    expect(at(1).flag).toBe('length_anomaly');
    expect(at(104).flag).toBeNull();
    // Another model has its own baseline.
    expect(at(2000, 'other').detail).toContain('baseline still filling');
  });
});

describe('hostile texts', () => {
  const script = '<script>alert(document.cookie)</script><img src=x onerror="fetch(\'//evil\')">';
  test.each<[string, string]>([
    ['1 MB of one letter', 'a'.repeat(MB)],
    ['1 MB of @', '@'.repeat(MB)],
    ['1 MB of a@a.', 'a@a.'.repeat(MB / 4)],
    ['1 MB of digits and dashes', '1-'.repeat(MB / 2)],
    ['1 MB of digits', '7'.repeat(MB)],
    ['1 MB of open brackets', '['.repeat(MB)],
    ['1 MB of quotes and backslashes', '"\\'.repeat(MB / 2)],
    ['1 MB of key prefixes', 'sk-'.repeat(MB / 3)],
    ['1 MB of fences', '```'.repeat(MB / 3)],
    ['1 MB of astral characters', '😀'.repeat(MB / 2)],
    ['lone surrogates', '\ud800a\udc00'.repeat(1000)],
    ['markup and script', script.repeat(1000)],
    ['control characters', '\u0000\u0001\u001b[31m'.repeat(1000)],
  ])('%s: every check answers', (_, text) => {
    const lengths = new LengthTracker();
    for (const wantJson of [false, true]) {
      const evs = runStage1(pair({ response: text, prompt: text, wantJson, finishReason: null }), { lengths, blocklist: ['alert', 'kill switch'] });
      expect(evs).toHaveLength(STAGE1_CHECKS.length);
      for (const e of evs) expect(e.detail.length).toBeLessThan(1000);
    }
  });

  test('markup is evaluated as text: a script tag is neither stripped nor escaped in the detail', () => {
    const evs = runStage1(pair({ response: script }), { blocklist: ['alert'] });
    expect(evs.find((e) => e.evaluator === 'stage1:blocklist')?.flag).toBe('blocklist');
    expect(evs.find((e) => e.evaluator === 'stage1:empty')?.detail).toBe(`${script.length} characters`);
  });
});
