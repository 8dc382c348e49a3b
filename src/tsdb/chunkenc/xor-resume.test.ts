import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STALE_NAN, isStaleNaN } from '../../model/index.js';
import { XorChunk } from './xor-chunk.js';
import { newXorEncoderState } from './xor-format.js';

function bytesOf(n: number, cut: number): { whole: Uint8Array; resumed: Uint8Array } {
  const whole = new XorChunk();
  let resumed: XorChunk | null = null;
  const partial = new XorChunk();
  for (let i = 0; i < n; i++) {
    const t = 1_700_000_000_000 + i * 15_000 + (i % 7 === 0 ? 1 : 0);
    const v = i === 3 ? STALE_NAN : i * 1.5 + (i % 3);
    whole.append(t, v);
    if (i < cut) partial.append(t, v);
    else {
      resumed ??= XorChunk.resume(partial.sealedBytes());
      resumed.append(t, v);
    }
  }
  return { whole: whole.sealedBytes(), resumed: (resumed ?? XorChunk.resume(partial.sealedBytes())).sealedBytes() };
}

describe('XorChunk.resume', () => {
  it.each([0, 1, 2, 3, 50, 119, 120])('continues a chunk cut after %i samples into identical bytes', (cut) => {
    const { whole, resumed } = bytesOf(120, cut);
    expect(Buffer.from(resumed).toString('hex')).toBe(Buffer.from(whole).toString('hex'));
  });

  it('restores the last value bit-exactly, the stale marker included', () => {
    const c = new XorChunk();
    c.append(1000, 1);
    c.append(2000, STALE_NAN);
    const r = XorChunk.resume(c.sealedBytes());
    expect(isStaleNaN(r.lastValue())).toBe(true);
    expect(r.maxTimeMs()).toBe(2000);
    expect(r.minTimeMs()).toBe(1000);
    expect(r.numSamples()).toBe(2);
  });

  it('matches uninterrupted encoding for arbitrary data (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.double()), { minLength: 1, maxLength: 60 }),
        fc.nat(60),
        (steps, cutAt) => {
          const whole = new XorChunk();
          const partial = new XorChunk();
          let t = -5_000_000;
          const cut = Math.min(cutAt, steps.length);
          const vs = Float64Array.from(steps, (s) => s[1]);
          steps.forEach(([dt], i) => {
            t += dt;
            whole.append(t, vs[i]);
            if (i < cut) partial.append(t, vs[i]);
          });
          const resumed = XorChunk.resume(partial.sealedBytes());
          t = -5_000_000;
          steps.forEach(([dt], i) => {
            t += dt;
            if (i >= cut) resumed.append(t, vs[i]);
          });
          expect(Buffer.from(resumed.sealedBytes()).equals(Buffer.from(whole.sealedBytes()))).toBe(true);
        },
      ),
    );
  });

  it('refuses bytes that do not decode', () => {
    expect(() => XorChunk.resume(Uint8Array.from([0, 5, 1]))).toThrow(/truncated|corrupt/);
  });
});

describe('XorChunk.resume from a saved encoder state', () => {
  it.each([2, 3, 17, 119])('continues a chunk cut after %i samples without decoding, byte for byte', (cut) => {
    const whole = new XorChunk();
    const partial = new XorChunk();
    const t = (i: number) => 1_700_000_000_000 + i * 15_000 + (i % 5 === 0 ? 2 : 0);
    const v = (i: number) => (i === 7 ? STALE_NAN : Math.round(i * 1.37 * 1000) / 1000);
    for (let i = 0; i < 120; i++) whole.append(t(i), v(i));
    for (let i = 0; i < cut; i++) partial.append(t(i), v(i));
    const state = newXorEncoderState();
    expect(partial.encoderState(state)).toBe(true);
    const resumed = XorChunk.resume(partial.sealedBytes(), state);
    expect(resumed.numSamples()).toBe(cut);
    expect(resumed.minTimeMs()).toBe(t(0));
    expect(resumed.maxTimeMs()).toBe(t(cut - 1));
    for (let i = cut; i < 120; i++) resumed.append(t(i), v(i));
    expect(Buffer.from(resumed.sealedBytes()).equals(Buffer.from(whole.sealedBytes()))).toBe(true);
  });

  it('gives no state for chunks it cannot describe', () => {
    const state = newXorEncoderState();
    const one = new XorChunk();
    one.append(1, 1);
    expect(one.encoderState(state)).toBe(false);
    expect(XorChunk.fromBytes(one.sealedBytes()).encoderState(state)).toBe(false);
    const huge = new XorChunk();
    huge.append(-(2 ** 53) + 1, 1);
    huge.append(2 ** 53 - 1, 2);
    expect(huge.encoderState(state)).toBe(false);
  });
});

describe('XorChunk.finishedBytes', () => {
  it('returns the encoded bytes, viewing a nearly full buffer and copying a mostly empty one', () => {
    const probe = new XorChunk();
    for (let i = 0; i < 3; i++) probe.append(i * 1000, i);
    const full = new XorChunk(undefined, probe.bytes().length); // exactly the room it needs
    for (let i = 0; i < 3; i++) full.append(i * 1000, i);
    const view = full.finishedBytes();
    expect(Buffer.from(view).equals(Buffer.from(full.bytes()))).toBe(true);
    expect(view.buffer === full.bytes().buffer && view.byteOffset === full.bytes().byteOffset).toBe(true);
    const roomy = new XorChunk(undefined, 4096);
    roomy.append(1000, 1);
    const copy = roomy.finishedBytes();
    expect(Buffer.from(copy).equals(Buffer.from(roomy.bytes()))).toBe(true);
    expect(copy.buffer === roomy.bytes().buffer && copy.byteOffset === roomy.bytes().byteOffset).toBe(false);
  });
});
