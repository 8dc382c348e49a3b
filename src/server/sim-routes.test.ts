import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noopLogger } from '../model/index.js';
import type { SimApiHandlers } from '../sim/index.js';
import { listen, sendJson, type HttpListener, type Routes } from './http.js';
import { registerSimRoutes } from './sim-routes.js';

const cleared: string[] = [];
const answer = async (_req: unknown, res: Parameters<typeof sendJson>[0]): Promise<void> => sendJson(res, 200, { status: 'success', data: null });
const handlers: SimApiHandlers = {
  getGroundTruth: answer,
  getFaults: answer,
  postFault: answer,
  getTargets: answer,
  deleteFault: async (_req, res, id) => {
    cleared.push(id);
    sendJson(res, 200, { status: 'success', data: { id } });
  },
};
let server: HttpListener;
let base = '';

beforeAll(async () => {
  const routes: Routes = new Map();
  registerSimRoutes(routes, handlers);
  server = await listen('127.0.0.1:0', routes, noopLogger);
  base = `http://127.0.0.1:${server.address.port}`;
});
afterAll(() => server.close());

describe('the simulator routes on the server', () => {
  it('DELETE /api/v1/sim/faults/<id> hands the decoded id to the handler', async () => {
    expect((await fetch(`${base}/api/v1/sim/faults/7`, { method: 'DELETE' })).status).toBe(200);
    expect((await fetch(`${base}/api/v1/sim/faults/a%20b`, { method: 'DELETE' })).status).toBe(200);
    expect(cleared).toEqual(['7', 'a b']);
  });

  it('another method on a fault path is a 405 in the API envelope', async () => {
    const r = await fetch(`${base}/api/v1/sim/faults/7`);
    expect(r.status).toBe(405);
    expect(await r.json()).toMatchObject({ status: 'error', errorType: 'bad_data' });
  });
});
