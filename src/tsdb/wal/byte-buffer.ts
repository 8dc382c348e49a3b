/**
 * A growable byte buffer that encoders append to and callers reuse across commits, so that
 * encoding a record allocates nothing once the buffer has reached its working size.
 */
export class ByteBuffer {
  /** The backing array; replaced (never shrunk) when it grows. Valid bytes are `[0, length)`. */
  bytes: Uint8Array;
  /** A DataView over `bytes`, replaced together with it. */
  view: DataView;
  /** The number of valid bytes. */
  length = 0;

  /** Creates an empty buffer with `initialCapacityBytes` of room. */
  constructor(initialCapacityBytes = 4096) {
    this.bytes = new Uint8Array(Math.max(16, initialCapacityBytes));
    this.view = new DataView(this.bytes.buffer);
  }

  /** Forgets the contents; the capacity stays. */
  reset(): void {
    this.length = 0;
  }

  /**
   * Makes room for `extraBytes` more bytes past `length`. After the call `bytes` and `view`
   * may be new objects: re-read them before writing.
   */
  ensure(extraBytes: number): void {
    const needed = this.length + extraBytes;
    if (needed <= this.bytes.length) return;
    let capacity = this.bytes.length * 2;
    while (capacity < needed) capacity *= 2;
    const grown = new Uint8Array(capacity);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }

  /** A view of the valid bytes. It shares memory with the buffer: use it before the next write. */
  subarray(start = 0, end = this.length): Uint8Array {
    return this.bytes.subarray(start, end);
  }
}
