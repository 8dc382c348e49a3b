import { INSIGHTS, dashboardPanels, panelQueries, interpolate, defaultValues } from './src/dashboards/index.js';
const base = process.argv[2];
const inst = process.argv[3];
const vals: Record<string, string | string[]> = { ...(defaultValues as any)(INSIGHTS) };
if (inst) vals.instance = [inst];
const end = Date.now() / 1000, start = end - 900, step = 5;
let total = 0;
const rows: [number, string][] = [];
for (const p of dashboardPanels(INSIGHTS)) for (const q of panelQueries(p)) {
  const expr = interpolate(q.expr, vals, { variables: INSIGHTS.variables, rateInterval: '20s', interval: '5s', range: '900s' });
  const t0 = performance.now();
  const body = q.instant ? new URLSearchParams({ query: expr, time: String(end) }) : new URLSearchParams({ query: expr, start: String(start), end: String(end), step: String(step) });
  const r = await fetch(`${base}/api/v1/${q.instant ? 'query' : 'query_range'}`, { method: 'POST', body });
  const j = await r.json() as any;
  const ms = performance.now() - t0; total += ms;
  rows.push([ms, `${p.id}/${q.refId} ${j.status} n=${j.data?.result?.length}`]);
}
rows.sort((a, b) => b[0] - a[0]);
for (const [ms, s] of rows.slice(0, 15)) console.log(ms.toFixed(0).padStart(6), s);
console.log('queries', rows.length, 'total ms', total.toFixed(0));
