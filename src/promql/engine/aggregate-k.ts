/**
 * The bounded heaps behind `topk` and `bottomk`, with Go's `container/heap` sift rules and
 * Prometheus' comparison (NaN counts as smaller than any number), so that ties and NaNs pick the
 * same series Prometheus picks.
 */
export class KHeap {
  /** Series indices and their values, heap-ordered. */
  readonly idx: number[] = [];
  readonly val: number[] = [];

  /** `top` keeps the k largest (a min-heap); otherwise the k smallest (a max-heap). */
  constructor(private readonly top: boolean) {}

  get size(): number {
    return this.idx.length;
  }

  clear(): void {
    this.idx.length = 0;
    this.val.length = 0;
  }

  /** Prometheus' `Less` of `vectorByValueHeap` (top) or `vectorByReverseValueHeap` (bottom). */
  private less(i: number, j: number): boolean {
    const vi = this.val[i];
    const vj = this.val[j];
    if (Number.isNaN(vi)) return true;
    return this.top ? vi < vj : vi > vj;
  }

  private swap(i: number, j: number): void {
    const ti = this.idx[i];
    this.idx[i] = this.idx[j];
    this.idx[j] = ti;
    const tv = this.val[i];
    this.val[i] = this.val[j];
    this.val[j] = tv;
  }

  private up(j: number): void {
    for (;;) {
      const i = (j - 1) >> 1;
      if (j <= 0 || i === j || !this.less(j, i)) break;
      this.swap(i, j);
      j = i;
    }
  }

  private down(i0: number, n: number): void {
    let i = i0;
    for (;;) {
      const j1 = 2 * i + 1;
      if (j1 >= n || j1 < 0) break;
      let j = j1;
      const j2 = j1 + 1;
      if (j2 < n && this.less(j2, j1)) j = j2;
      if (!this.less(j, i)) break;
      this.swap(i, j);
      i = j;
    }
  }

  /** Offers series `index` with value `v` to a heap bounded at `k` entries. */
  offer(index: number, v: number, k: number): void {
    if (this.idx.length < k) {
      this.idx.push(index);
      this.val.push(v);
      this.up(this.idx.length - 1);
      return;
    }
    const head = this.val[0];
    const replace = this.top ? head < v || (Number.isNaN(head) && !Number.isNaN(v)) : head > v || (Number.isNaN(head) && !Number.isNaN(v));
    if (!replace) return;
    this.idx[0] = index;
    this.val[0] = v;
    this.down(0, this.idx.length);
  }

  /** The entries best first (largest for top, smallest for bottom; NaN last), as Prometheus orders an instant result. */
  sorted(): number[] {
    const order = this.idx.map((_, i) => i);
    const sign = this.top ? -1 : 1;
    order.sort((a, b) => {
      const va = this.val[a];
      const vb = this.val[b];
      const na = Number.isNaN(va);
      const nb = Number.isNaN(vb);
      if (na || nb) return na === nb ? 0 : na ? 1 : -1;
      return va === vb ? 0 : sign * (va < vb ? -1 : 1);
    });
    return order.map((i) => this.idx[i]);
  }
}
