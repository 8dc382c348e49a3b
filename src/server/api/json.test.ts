import { describe, expect, it } from 'vitest';
import { encodeJson, goString, metricJson, queryDataJson, RawJson, successJson } from './json.js';
import { parseQueryInto } from './form.js';

describe('Go-compatible JSON', () => {
  it.each([
    ['plain', '"plain"'],
    ['q"uote\\ back\nline ü <b>&', '"q\\"uote\\\\ back\\nline ü \\u003cb\\u003e\\u0026"'],
    ['\x00\x08\x0c\t\r\x1f\x7f', '"\\u0000\\u0008\\u000c\\t\\r\\u001f\x7f"'],
    ['\u2028\u2029', '"\\u2028\\u2029"'],
    ['lone \ud800 high, lone \udc00 low, pair \ud83d\ude00', '"lone \\ufffd high, lone \\ufffd low, pair \ud83d\ude00"'],
  ])('goString(%j)', (s, want) => {
    expect(goString(s)).toBe(want);
    expect(JSON.parse(want)).toBe(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
  });

  it('encodes objects in the given key order, leaving undefined out, with raw text verbatim', () => {
    expect(encodeJson({ b: 1, a: [true, null, 'x'], skip: undefined, raw: new RawJson('9223372036854775807') })).toBe('{"b":1,"a":[true,null,"x"],"raw":9223372036854775807}');
    expect(() => encodeJson({ x: NaN })).toThrow();
  });

  it('sorts metric keys as Go sorts map keys', () => {
    expect(metricJson({ job: 'a', __name__: 'up', Z: 'z', instance: 'i' })).toBe('{"Z":"z","__name__":"up","instance":"i","job":"a"}');
  });

  it('writes query data exactly as Prometheus 2.42 does', () => {
    const data = queryDataJson({ resultType: 'vector', result: [{ metric: { job: 'a', __name__: 'up' }, value: [1700006700.5, '+Inf'] }] });
    expect(successJson(data, ['w'])).toBe('{"status":"success","data":{"resultType":"vector","result":[{"metric":{"__name__":"up","job":"a"},"value":[1700006700.500,"+Inf"]}]},"warnings":["w"]}');
    expect(encodeJson(queryDataJson({ resultType: 'scalar', result: [-1.25, '-0'] }))).toBe('{"resultType":"scalar","result":[-1.25,"-0"]}');
    expect(encodeJson(queryDataJson({ resultType: 'matrix', result: [{ metric: {}, values: [[1, '1'], [2.05, '2']] }] }))).toBe(
      '{"resultType":"matrix","result":[{"metric":{},"values":[[1,"1"],[2.050,"2"]]}]}',
    );
    expect(encodeJson(queryDataJson({ resultType: 'string', result: [0, '<x>'] }))).toBe('{"resultType":"string","result":[0,"\\u003cx\\u003e"]}');
  });

  it('leaves empty warnings and infos out', () => {
    expect(successJson([])).toBe('{"status":"success","data":[]}');
    expect(successJson('x', [], ['i'])).toBe('{"status":"success","data":"x","infos":["i"]}');
  });
});

describe('Go-compatible form parsing (url.ParseQuery)', () => {
  const parse = (q: string) => {
    const m = new Map<string, string[]>();
    const err = parseQueryInto(m, q);
    return { values: Object.fromEntries(m), err };
  };

  it.each([
    ['query=up&time=1', { query: ['up'], time: ['1'] }, null],
    ['match[]=a&match%5B%5D=b&match[]=', { 'match[]': ['a', 'b', ''] }, null],
    ['query=sum+by+(job)%20(x)&&=v', { query: ['sum by (job) (x)'], '': ['v'] }, null],
    ['a&b=', { a: [''], b: [''] }, null],
    ['q=%C3%BC%E2%9C%93', { q: ['ü✓'] }, null],
    ['q=%ZZ&ok=1', { ok: ['1'] }, 'invalid URL escape "%ZZ"'],
    ['q=a;b&ok=1', { ok: ['1'] }, 'invalid semicolon separator in query'],
    ['q=%4', {}, 'invalid URL escape "%4"'],
  ])('%j', (q, values, err) => {
    expect(parse(q)).toEqual({ values, err });
  });
});
