import snappy from 'snappyjs';
import { WireError, WireErrorCode, errorMessage } from './errors.js';

/**
 * Snappy block format (not the framed stream format), as remote write uses it: the body is one
 * block that starts with the uncompressed length as a varint. Backed by `snappyjs` (pure JS).
 */

/** Reads the uncompressed length a snappy block declares, or -1 when the varint is malformed. */
export function snappyDecodedLength(block: Uint8Array): number {
  let result = 0;
  for (let i = 0, shift = 0; i < block.length && shift <= 28; i++, shift += 7) {
    const b = block[i];
    result += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return result;
  }
  return -1;
}

/**
 * Walks the elements of a snappy block without copying anything and reports whether it is
 * well-formed: every literal lies inside the input, every copy reaches back into what was already
 * produced, and the output is exactly `declared` bytes long. `snappyjs` 0.7.0 trusts its input:
 * a literal whose 4-byte length has the top bit set makes its position run backwards and the
 * decoder loop forever, and out-of-range copies go silently wrong. Checking first costs one cheap
 * pass and makes the library safe on hostile bodies.
 */
function wellFormed(block: Uint8Array, start: number, declared: number): boolean {
  const n = block.length;
  let pos = start;
  let out = 0;
  while (pos < n) {
    const c = block[pos++];
    const kind = c & 3;
    let len: number;
    if (kind === 0) {
      len = (c >>> 2) + 1;
      if (len > 60) {
        const extra = len - 60;
        if (pos + extra > n) return false;
        len = 0;
        for (let i = extra - 1; i >= 0; i--) len = len * 256 + block[pos + i];
        len += 1;
        pos += extra;
      }
      if (pos + len > n) return false;
      pos += len;
    } else {
      let offset: number;
      if (kind === 1) {
        if (pos + 1 > n) return false;
        len = ((c >>> 2) & 7) + 4;
        offset = block[pos] + ((c >>> 5) << 8);
        pos += 1;
      } else if (kind === 2) {
        if (pos + 2 > n) return false;
        len = (c >>> 2) + 1;
        offset = block[pos] + block[pos + 1] * 256;
        pos += 2;
      } else {
        if (pos + 4 > n) return false;
        len = (c >>> 2) + 1;
        offset = block[pos] + block[pos + 1] * 256 + block[pos + 2] * 65536 + block[pos + 3] * 16777216;
        pos += 4;
      }
      if (offset === 0 || offset > out) return false;
    }
    out += len;
    if (out > declared) return false;
  }
  return out === declared;
}

/** The number of bytes the length varint at the start of `block` takes. */
function varintSize(block: Uint8Array): number {
  let i = 0;
  while (i < block.length && (block[i] & 0x80) !== 0) i++;
  return i + 1;
}

/**
 * Decompresses one snappy block. The declared length is checked against `maxBytes` before any
 * memory is allocated, so a tiny body cannot make the decoder allocate gigabytes. Throws
 * `WireError` `ERR_WIRE_TOO_LARGE` over the limit and `ERR_WIRE_SNAPPY` for a malformed block.
 */
export function snappyDecode(block: Uint8Array, maxBytes: number): Uint8Array {
  const declared = snappyDecodedLength(block);
  if (declared < 0) throw new WireError(WireErrorCode.SNAPPY, 'snappy: corrupt input: invalid length header');
  if (declared > maxBytes) {
    throw new WireError(WireErrorCode.TOO_LARGE, `snappy: decoded length ${declared} is over the limit of ${maxBytes} bytes`);
  }
  if (!wellFormed(block, varintSize(block), declared)) throw new WireError(WireErrorCode.SNAPPY, 'snappy: corrupt input');
  try {
    // A plain Uint8Array view: snappyjs then answers with a Uint8Array too (not a Buffer).
    return snappy.uncompress(new Uint8Array(block.buffer, block.byteOffset, block.byteLength), maxBytes);
  } catch (e) {
    throw new WireError(WireErrorCode.SNAPPY, `snappy: corrupt input: ${errorMessage(e)}`, { cause: e });
  }
}

/** Compresses `data` into one snappy block (for remote write senders and tests). */
export function snappyEncode(data: Uint8Array): Uint8Array {
  return snappy.compress(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
}
