/**
 * Parsing time of one sample line with very many labels (a hostile target's), unsorted (names
 * in descending order, so the parser cannot take its sorted fast path) and sorted. Linear-ish
 * parsing keeps `perLabelUs` flat as the line grows; before issue 14 the unsorted line's
 * duplicate check compared every pair (40,000 labels: seconds).
 *
 * Env: BENCH_LABELS (default "1000,10000,40000").
 */
import { parseExposition } from '../../src/wire/index.js';

const sizes = (process.env.BENCH_LABELS ?? '1000,10000,40000').split(',').map(Number);

function line(n: number, sorted: boolean): string {
  const parts = Array.from({ length: n }, (_, i) => `l${String(sorted ? i : n - i).padStart(6, '0')}="v${i}"`);
  return `m{${parts.join(',')}} 1\n`;
}

function ms(text: string): number {
  const t0 = performance.now();
  parseExposition(text, 'prometheus-0.0.4', () => undefined);
  return performance.now() - t0;
}

// One untimed round of the smallest size lets the JIT settle.
ms(line(sizes[0], false));
for (const n of sizes) {
  const unsorted = ms(line(n, false));
  const sorted = ms(line(n, true));
  console.log(
    JSON.stringify({ bench: 'wire.text-parse-wide', labels: n, unsortedMs: Number(unsorted.toFixed(1)), sortedMs: Number(sorted.toFixed(1)), perLabelUs: Number(((unsorted * 1000) / n).toFixed(2)) }),
  );
}
