/**
 * Kahan–Neumaier compensated summation, as Prometheus' `kahanSumInc`: add `inc` to the running
 * `sum` whose lost low-order bits are in `c`. Returns the new sum and compensation in `out`
 * (reused, so hot loops allocate nothing). The final value is `sum + c`.
 */
export function kahanSumInc(inc: number, sum: number, c: number, out: { sum: number; c: number }): void {
  const t = sum + inc;
  if (t === Infinity || t === -Infinity) c = 0;
  else if (Math.abs(sum) >= Math.abs(inc)) c += sum - t + inc;
  else c += inc - t + sum;
  out.sum = t;
  out.c = c;
}
