import { describe, expect, it } from 'vitest';
import type { Handler, Routes } from '../http.js';
import type { ApiDeps } from './common.js';
import { registerRulesFallback } from './rules-fallback.js';

describe('registerRulesFallback', () => {
  it('fills in only the routes nobody registered (the rules engine keeps its own)', () => {
    const own: Handler = () => undefined;
    const routes: Routes = new Map([['GET /api/v1/rules', own]]);
    // The deps are only read when a request arrives.
    registerRulesFallback(routes, {} as ApiDeps);
    expect(routes.get('GET /api/v1/rules')).toBe(own);
    expect([...routes.keys()].sort()).toEqual(['GET /api/v1/alerts', 'GET /api/v1/rules', 'OPTIONS /api/v1/alerts', 'OPTIONS /api/v1/rules']);
  });
});
