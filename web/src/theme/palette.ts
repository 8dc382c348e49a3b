/**
 * Colours that carry meaning. Series use the Okabe–Ito palette (distinguishable with the common
 * colour-vision deficiencies), in an order tuned per theme (black is useless on a dark
 * background, yellow on a light one). Well-known engines always get the same colour,
 * so that vLLM is the same blue on every panel. Health states (HEALTH_COLORS, written as the
 * custom properties of theme.css) have a colour, a pattern and an icon each, so they never depend
 * on hue alone.
 */
import type { Theme } from '../state/url-state.js';

/** Okabe & Ito (2008), "Color Universal Design". */
export const OKABE_ITO = {
  orange: '#E69F00',
  skyBlue: '#56B4E9',
  bluishGreen: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  reddishPurple: '#CC79A7',
  black: '#000000',
  grey: '#999999',
} as const;

/**
 * The colour of each hex-cell health state (web/src/panels/HexGridPanel/health.ts), per theme:
 * theme-store.ts sets them on <html> as `--healthy`, `--warning`, … and the cells' patterns read
 * those. Seven
 * states from eight Okabe–Ito colours: green healthy, orange warning, vermillion critical,
 * reddish purple down, blue starting (sky blue on dark, blue on light), yellow idle (darkened on
 * light, where pure yellow has no contrast) and grey for no data.
 */
export const HEALTH_COLORS: Readonly<Record<Theme, Readonly<Record<'healthy' | 'warning' | 'critical' | 'down' | 'starting' | 'idle' | 'nodata', string>>>> = {
  dark: {
    healthy: OKABE_ITO.bluishGreen,
    warning: OKABE_ITO.orange,
    critical: OKABE_ITO.vermillion,
    down: OKABE_ITO.reddishPurple,
    starting: OKABE_ITO.skyBlue,
    idle: OKABE_ITO.yellow,
    nodata: '#8B93A1',
  },
  light: {
    healthy: OKABE_ITO.bluishGreen,
    warning: OKABE_ITO.orange,
    critical: OKABE_ITO.vermillion,
    down: OKABE_ITO.reddishPurple,
    starting: OKABE_ITO.blue,
    idle: '#B8A500',
    nodata: '#8B93A1',
  },
};

const DARK_ORDER = [
  OKABE_ITO.skyBlue,
  OKABE_ITO.orange,
  OKABE_ITO.bluishGreen,
  OKABE_ITO.reddishPurple,
  OKABE_ITO.yellow,
  OKABE_ITO.vermillion,
  '#8FB8DE',
  OKABE_ITO.grey,
];
const LIGHT_ORDER = [
  OKABE_ITO.blue,
  OKABE_ITO.orange,
  OKABE_ITO.bluishGreen,
  OKABE_ITO.reddishPurple,
  OKABE_ITO.vermillion,
  OKABE_ITO.skyBlue,
  '#6B6B6B',
  '#B8A500',
];

/** The series colours of `theme`, in order. */
export function seriesPalette(theme: Theme): readonly string[] {
  return theme === 'dark' ? DARK_ORDER : LIGHT_ORDER;
}

/** Engines keep one colour everywhere (the first palette slots, in this order). */
const ENGINE_SLOTS: Readonly<Record<string, number>> = { vllm: 0, sglang: 1, djl: 2, tgi: 3, trtllm: 4, triton: 5 };

/**
 * The colour of the i-th series of a panel, or the engine's own colour when the series is one
 * engine's (its `engine` label is its only distinguishing label).
 */
export function seriesColor(theme: Theme, index: number, labels?: Readonly<Record<string, string>>): string {
  const p = seriesPalette(theme);
  const engine = labels?.engine;
  if (engine !== undefined && ENGINE_SLOTS[engine] !== undefined) return p[ENGINE_SLOTS[engine] % p.length];
  return p[index % p.length];
}

/** A sequential, colour-blind-safe scale for heatmaps (viridis, 9 stops). */
export const VIRIDIS = ['#440154', '#472d7b', '#3b528b', '#2c728e', '#21918c', '#28ae80', '#5ec962', '#addc30', '#fde725'];

/** Interpolates a colour on `stops` at t ∈ [0, 1]. */
export function rampColor(stops: readonly string[], t: number): string {
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const a = hexToRgb(stops[i]);
  const b = hexToRgb(stops[i + 1]);
  const c = a.map((v, k) => Math.round(v + (b[k] - v) * f));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

/** `#rrggbb` → [r, g, b]. */
export function hexToRgb(hex: string): [number, number, number] {
  const h = hex.replace('#', '');
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

/** `#rrggbb` with an alpha, as `rgba(...)`. */
export function withAlpha(hex: string, alpha: number): string {
  const [r, g, b] = hexToRgb(hex);
  return `rgba(${r},${g},${b},${alpha})`;
}
