import { describe, expect, it } from 'vitest';
import { speedNotice } from './speed-notice.js';

describe('speedNotice', () => {
  it.each([
    [{}, null],
    [{ speed: '1' }, null],
    [{ speed: 'x' }, null],
    [{ speed: '60' }, '60× speed: rates are per real second'],
    [{ speed: '0.5', history: '3h' }, 'History replayed at start runs at 1×.'],
  ] as const)('%j', (flags, want) => {
    const got = speedNotice(flags);
    if (want === null) expect(got).toBeNull();
    else expect(got).toContain(want);
  });
});
