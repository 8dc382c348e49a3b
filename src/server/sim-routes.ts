import type { SimApiHandlers } from '../sim/index.js';
import type { Routes } from './http.js';

/** Mounts the simulator's control API (`/api/v1/sim/*`) on the server's routes. */
export function registerSimRoutes(routes: Routes, h: SimApiHandlers): void {
  routes.set('GET /api/v1/sim/ground-truth', (req, res) => h.getGroundTruth(req, res));
  routes.set('GET /api/v1/sim/faults', (req, res) => h.getFaults(req, res));
  routes.set('POST /api/v1/sim/faults', (req, res) => h.postFault(req, res));
  routes.set('DELETE /api/v1/sim/faults/:id', (req, res, _url, params) => h.deleteFault(req, res, params.id));
  routes.set('GET /api/v1/sim/targets', (req, res) => h.getTargets(req, res));
}
