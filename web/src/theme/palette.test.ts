import { describe, expect, it } from 'vitest';
import { HEALTH_STATES } from '../panels/HexGridPanel/health.js';
import { HEALTH_COLORS, OKABE_ITO } from './palette.js';

describe('health colours', () => {
  it.each(['dark', 'light'] as const)('the %s theme has one colour per health state, each its own', (theme) => {
    const colours = HEALTH_COLORS[theme];
    expect(Object.keys(colours).sort()).toEqual([...HEALTH_STATES].sort());
    expect(new Set(Object.values(colours)).size).toBe(HEALTH_STATES.length);
  });

  it('keeps warning and critical on the colours the rest of the UI uses for them', () => {
    for (const theme of ['dark', 'light'] as const) {
      expect(HEALTH_COLORS[theme].warning).toBe(OKABE_ITO.orange);
      expect(HEALTH_COLORS[theme].critical).toBe(OKABE_ITO.vermillion);
    }
  });
});
