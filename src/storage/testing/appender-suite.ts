import { describe, expect, it } from 'vitest';
import { Labels, STALE_NAN, isStaleNaN, matcher, type Matcher, type Sample } from '../../model/index.js';
import type { Appendable } from '../appender.js';
import { StorageErrorCode, isStorageError } from '../errors.js';

/** A storage under test, as `runAppenderSuite` sees it. */
export interface AppenderUnderTest {
  appendable: Appendable;
  /** Reads back what was committed (through the storage's own read path or its remote peer). */
  read(matchers: Matcher[], minTMs: number, maxTMs: number): Promise<{ labels: Labels; samples: Sample[] }[]>;
  /** Closes and reopens the storage from its persisted state (omit for storages without one). */
  reopen?(): Promise<AppenderUnderTest>;
  close(): Promise<void>;
}

/** What the implementation under test enforces itself. */
export interface AppenderSuiteOptions {
  /** True when `append` rejects out-of-order and duplicate samples (the TSDB); false when a remote end decides. */
  validatesOrder: boolean;
  /** True when the storage persists and `AppenderUnderTest.reopen` exists: committed samples must survive a reopen. */
  persistent: boolean;
}

const lbl = (name: string, extra: Record<string, string> = {}): Labels => Labels.from({ __name__: name, ...extra });
const bits = (v: number): string => {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, v);
  return dv.getBigUint64(0).toString(16);
};

function expectCode(fn: () => unknown, code: string): void {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(isStorageError(thrown), `expected StorageError ${code}, got ${String(thrown)}`).toBe(true);
  expect((thrown as { code: string }).code).toBe(code);
}

/**
 * The conformance suite of the `Appender` contract (see src/storage/appender.ts). Every storage
 * implementation runs it: the embedded TSDB, the remote_write appender, fan-outs.
 */
export function runAppenderSuite(name: string, open: () => Promise<AppenderUnderTest>, options: AppenderSuiteOptions): void {
  describe(`Appender contract: ${name}`, () => {
    const withStorage = (fn: (s: AppenderUnderTest) => Promise<void>) => async () => {
      const s = await open();
      try {
        await fn(s);
      } finally {
        await s.close();
      }
    };

    it('makes committed samples readable and returns a reusable ref', withStorage(async (s) => {
      const app = s.appendable.appender();
      const l = lbl('suite_basic', { job: 'a' });
      const ref = app.append(0, l, 1000, 1);
      expect(ref).toBeGreaterThan(0);
      expect(app.append(ref, l, 2000, 2)).toBe(ref);
      await app.commit();
      const got = await s.read([matcher('=', '__name__', 'suite_basic')], 0, 10_000);
      expect(got).toHaveLength(1);
      expect(got[0].labels.equals(l)).toBe(true);
      expect(got[0].samples).toEqual([{ tMs: 1000, value: 1 }, { tMs: 2000, value: 2 }]);
    }));

    it('discards staged samples on rollback', withStorage(async (s) => {
      const app = s.appendable.appender();
      app.append(0, lbl('suite_rollback'), 1000, 1);
      app.rollback();
      const app2 = s.appendable.appender();
      app2.append(0, lbl('suite_other'), 1000, 1);
      await app2.commit();
      expect(await s.read([matcher('=', '__name__', 'suite_rollback')], 0, 10_000)).toEqual([]);
    }));

    it('refuses use after commit or rollback', withStorage(async (s) => {
      const app = s.appendable.appender();
      app.append(0, lbl('suite_closed'), 1000, 1);
      await app.commit();
      expectCode(() => app.append(0, lbl('suite_closed'), 2000, 1), StorageErrorCode.APPENDER_CLOSED);
      await expect(app.commit()).rejects.toMatchObject({ code: StorageErrorCode.APPENDER_CLOSED });
      expectCode(() => app.rollback(), StorageErrorCode.APPENDER_CLOSED);
    }));

    it('keeps special float values bit-exact, the stale marker included', withStorage(async (s) => {
      // A Float64Array: V8 canonicalizes NaN payloads in plain number arrays (see src/model/sample.ts).
      const values = Float64Array.of(STALE_NAN, Infinity, -Infinity, -0, 5e-324, Number.MAX_VALUE, NaN);
      const app = s.appendable.appender();
      values.forEach((v, i) => app.append(0, lbl('suite_floats'), 1000 * (i + 1), v));
      await app.commit();
      const [got] = await s.read([matcher('=', '__name__', 'suite_floats')], 0, 100_000);
      expect(got.samples.map((x) => bits(x.value))).toEqual(Array.from(values, bits));
      expect(bits(values[0])).toBe('7ff0000000000002');
      expect(isStaleNaN(got.samples[0].value)).toBe(true);
    }));

    it('rejects a label set without a metric name', withStorage(async (s) => {
      const app = s.appendable.appender();
      expectCode(() => app.append(0, Labels.from({ job: 'x' }), 1000, 1), StorageErrorCode.INVALID_LABELS);
      app.rollback();
    }));

    it('rejects timestamps that are not integers', withStorage(async (s) => {
      const app = s.appendable.appender();
      expectCode(() => app.append(0, lbl('suite_ts'), 1.5, 1), StorageErrorCode.INVALID_TIMESTAMP);
      expectCode(() => app.append(0, lbl('suite_ts'), Number.NaN, 1), StorageErrorCode.INVALID_TIMESTAMP);
      app.rollback();
    }));

    it('commits many series in one batch', withStorage(async (s) => {
      const app = s.appendable.appender();
      for (let i = 0; i < 500; i++) {
        let ref = 0;
        for (let t = 0; t < 5; t++) ref = app.append(ref, lbl('suite_many', { i: String(i) }), 1000 + t * 15_000, i * t);
      }
      await app.commit();
      const got = await s.read([matcher('=', '__name__', 'suite_many')], 0, 1_000_000);
      expect(got).toHaveLength(500);
      expect(got.every((g) => g.samples.length === 5)).toBe(true);
      const i42 = got.find((g) => g.labels.get('i') === '42');
      expect(i42?.samples.map((x) => x.value)).toEqual([0, 42, 84, 126, 168]);
    }));

    if (options.validatesOrder) {
      it('rejects out-of-order and duplicate samples and stays usable', withStorage(async (s) => {
        const l = lbl('suite_order');
        const a = s.appendable.appender();
        const ref = a.append(0, l, 2000, 2);
        expectCode(() => a.append(ref, l, 1000, 1), StorageErrorCode.OUT_OF_ORDER_SAMPLE);
        expectCode(() => a.append(ref, l, 2000, 3), StorageErrorCode.DUPLICATE_SAMPLE_FOR_TIMESTAMP);
        expect(a.append(ref, l, 2000, 2)).toBe(ref); // identical repeat: ignored
        a.append(ref, l, 3000, 3);
        await a.commit();
        const b = s.appendable.appender();
        expectCode(() => b.append(0, l, 2500, 9), StorageErrorCode.OUT_OF_ORDER_SAMPLE);
        expectCode(() => b.append(0, l, 3000, 9), StorageErrorCode.DUPLICATE_SAMPLE_FOR_TIMESTAMP);
        b.append(0, l, 3000, 3);
        b.rollback();
        const [got] = await s.read([matcher('=', '__name__', 'suite_order')], 0, 10_000);
        expect(got.samples).toEqual([{ tMs: 2000, value: 2 }, { tMs: 3000, value: 3 }]);
      }));

      it('drops at commit what a concurrent commit made out of order, and writes the rest', withStorage(async (s) => {
        const l = lbl('suite_concurrent');
        const a = s.appendable.appender();
        const b = s.appendable.appender();
        a.append(0, l, 1000, 1);
        a.append(0, lbl('suite_concurrent_other'), 1000, 7);
        b.append(0, l, 2000, 2);
        await b.commit();
        await a.commit();
        const got = await s.read([matcher('=~', '__name__', 'suite_concurrent.*')], 0, 10_000);
        expect(got.map((g) => [g.labels.metricName, g.samples])).toEqual([
          ['suite_concurrent', [{ tMs: 2000, value: 2 }]],
          ['suite_concurrent_other', [{ tMs: 1000, value: 7 }]],
        ]);
      }));
    }

    if (options.persistent) it('keeps committed samples across a reopen', async () => {
      let s = await open();
      try {
        const app = s.appendable.appender();
        app.append(0, lbl('suite_durable', { k: 'v' }), 1000, 42);
        app.append(0, lbl('suite_durable', { k: 'w' }), 1000, STALE_NAN);
        await app.commit();
        if (s.reopen === undefined) throw new Error('a persistent storage under test must provide reopen()');
        s = await s.reopen();
        const got = await s.read([matcher('=', '__name__', 'suite_durable')], 0, 10_000);
        expect(got.map((g) => [g.labels.get('k'), g.samples.map((x) => bits(x.value))])).toEqual([
          ['v', [bits(42)]],
          ['w', [bits(STALE_NAN)]],
        ]);
      } finally {
        await s.close();
      }
    });
  });
}
