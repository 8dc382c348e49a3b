/**
 * The numeric per-series state of the head, stored column-wise in Float64Arrays indexed by
 * series ref instead of as object fields: V8 boxes every double-valued field in its own 16-byte
 * heap number, which at 300k series costs more than the samples themselves. Typed arrays also
 * keep NaN payloads bit-exact (the stale marker), which plain arrays do not.
 */
export class SeriesColumns {
  /** Timestamp of the newest committed sample (-Infinity: none). */
  lastT = new Float64Array(0);
  /** Value of the newest committed sample. */
  lastV = new Float64Array(0);
  /** Newest staged (not yet committed) sample of the appender that owns the series. */
  pendingT = new Float64Array(0);
  pendingV = new Float64Array(0);
  /** Scratch of the commit validating the series. */
  commitT = new Float64Array(0);
  commitV = new Float64Array(0);
  /** Exclusive end of the block range the open chunk belongs to. */
  openEnd = new Float64Array(0);

  /** Makes room for `ref` and resets its slots to "no sample". */
  init(ref: number): void {
    if (ref >= this.lastT.length) this.grow(ref + 1);
    this.lastT[ref] = -Infinity;
    this.lastV[ref] = 0;
    this.pendingT[ref] = -Infinity;
    this.pendingV[ref] = 0;
    this.commitT[ref] = -Infinity;
    this.commitV[ref] = 0;
    this.openEnd[ref] = -Infinity;
  }

  private grow(min: number): void {
    const size = Math.max(min, this.lastT.length * 2, 1024);
    const grown = (a: Float64Array): Float64Array<ArrayBuffer> => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    this.lastT = grown(this.lastT);
    this.lastV = grown(this.lastV);
    this.pendingT = grown(this.pendingT);
    this.pendingV = grown(this.pendingV);
    this.commitT = grown(this.commitT);
    this.commitV = grown(this.commitV);
    this.openEnd = grown(this.openEnd);
  }
}
