import { expect, test } from 'vitest';
import { requestUrl } from './request-url.js';

test.each([
  ['/api/v1/query?query=up', '/api/v1/query', '?query=up'],
  ['//%2F?(f', '//%2F', '?(f'],
  ['//evil.example/api/v1/write', '//evil.example/api/v1/write', ''],
  ['http://other:9/x/y?z=1', '/x/y', '?z=1'],
  ['*', '/*', ''],
  ['/a/../b', '/b', ''],
  [undefined, '/', ''],
])('%s → path %s, query %s', (target, path, search) => {
  const u = requestUrl({ url: target });
  expect([u?.pathname, u?.search]).toEqual([path, search]);
});

test('a target that parses nowhere is null', () => {
  expect(requestUrl({ url: 'http://[::1' })).toBe(null);
});
