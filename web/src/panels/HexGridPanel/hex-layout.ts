/**
 * The fleet honeycomb's geometry: pointy-top hexagons in odd-r offset rows, one block per group
 * (availability zone), blocks side by side and wrapped onto lines. Pure and deterministic: the
 * same cells give the same layout whatever their input order (groups and cells are sorted in
 * natural order, `i2` before `i10`). The hexagon size is the largest in [minSize, maxSize] that
 * keeps the grid within `maxHeight`, so 7 instances get big cells and 1,000 still fit one screen.
 *
 * Geometry of a pointy-top hexagon of radius s: width √3·s, height 2s; rows are 1.5·s apart and
 * odd rows are shifted right by half a width. Axial coordinates: q = col − (row − (row & 1)) / 2,
 * r = row.
 */
import { naturalCompare } from '../model/table-join.js';

/** One cell to place. */
export interface HexInput {
  readonly id: string;
  readonly group: string;
}

/** A placed cell. */
export interface HexCell {
  readonly id: string;
  readonly group: string;
  /** Position in `HexLayout.cells` (group order, then natural id order). */
  readonly index: number;
  /** Offset coordinates within the group's block. */
  readonly col: number;
  readonly row: number;
  /** Axial coordinates within the group's block. */
  readonly q: number;
  readonly r: number;
  /** Centre, in px from the layout's top left. */
  readonly x: number;
  readonly y: number;
}

/** A group's block. */
export interface HexGroup {
  readonly name: string;
  /** Top left of the block's label line. */
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly cols: number;
  readonly rows: number;
  /** Index of the group's first cell in `HexLayout.cells`. */
  readonly first: number;
  readonly count: number;
}

/** The whole layout. */
export interface HexLayout {
  readonly cells: HexCell[];
  readonly groups: HexGroup[];
  readonly width: number;
  readonly height: number;
  /** Hexagon radius (centre to corner), px. */
  readonly size: number;
}

/** Options of `layoutHexGrid`. */
export interface HexLayoutOptions {
  /** Available width, px. */
  readonly width: number;
  /** Preferred maximum height, px (exceeded only at `minSize`). Default 340. */
  readonly maxHeight?: number;
  /** Default 22. */
  readonly maxSize?: number;
  /** Default 5. */
  readonly minSize?: number;
  /** Horizontal and vertical space between groups, px. Default 28. */
  readonly groupGap?: number;
  /** Height of a group's title line, px. Default 22. */
  readonly labelHeight?: number;
  /** Narrowest slot a group gets before groups wrap onto another line, px. Default 180. */
  readonly minGroupWidth?: number;
  /** Space between neighbouring hexagons, px. Default 2. */
  readonly gap?: number;
}

const SQRT3 = Math.sqrt(3);

/** Lays out `inputs`. */
export function layoutHexGrid(inputs: readonly HexInput[], opts: HexLayoutOptions): HexLayout {
  const width = Math.max(60, opts.width);
  const maxHeight = opts.maxHeight ?? 340;
  const maxSize = opts.maxSize ?? 22;
  const minSize = Math.min(opts.minSize ?? 5, maxSize);
  const groupGap = opts.groupGap ?? 28;
  const labelHeight = opts.labelHeight ?? 22;
  const gap = opts.gap ?? 2;

  const byGroup = new Map<string, string[]>();
  for (const c of inputs) {
    let ids = byGroup.get(c.group);
    if (ids === undefined) byGroup.set(c.group, (ids = []));
    ids.push(c.id);
  }
  const groupNames = [...byGroup.keys()].sort(naturalCompare);
  const groups = groupNames.map((name) => ({ name, ids: [...new Set(byGroup.get(name))].sort(naturalCompare) }));
  const perLine = Math.max(1, Math.min(groups.length, Math.floor((width + groupGap) / ((opts.minGroupWidth ?? 180) + groupGap))));
  const slot = (width - (perLine - 1) * groupGap) / perLine;

  // Geometry for one size: block shapes per group and the total height.
  const shape = (s: number): { cols: number[]; rows: number[]; height: number } => {
    const pitchX = SQRT3 * s + gap;
    const pitchY = 1.5 * s + gap * 0.866;
    const cols = groups.map((g) => Math.max(1, Math.min(g.ids.length, Math.floor((slot - pitchX / 2) / pitchX))));
    const rows = groups.map((g, i) => Math.max(1, Math.ceil(g.ids.length / cols[i])));
    let height = 0;
    for (let start = 0; start < groups.length; start += perLine) {
      const lineRows = Math.max(...rows.slice(start, start + perLine));
      height += labelHeight + (lineRows - 1) * pitchY + 2 * s + (start > 0 ? groupGap : 0);
    }
    return { cols, rows, height };
  };

  let size = maxSize;
  let geo = shape(size);
  while (geo.height > maxHeight && size > minSize) {
    size = Math.max(minSize, size - 0.5);
    geo = shape(size);
  }

  const pitchX = SQRT3 * size + gap;
  const pitchY = 1.5 * size + gap * 0.866;
  const cells: HexCell[] = [];
  const outGroups: HexGroup[] = [];
  let lineY = 0;
  for (let start = 0; start < groups.length; start += perLine) {
    const lineRows = Math.max(...geo.rows.slice(start, start + perLine));
    const lineHeight = labelHeight + (lineRows - 1) * pitchY + 2 * size;
    for (let gi = start; gi < Math.min(groups.length, start + perLine); gi++) {
      const g = groups[gi];
      const cols = geo.cols[gi];
      const rows = geo.rows[gi];
      const gx = (gi - start) * (slot + groupGap);
      const first = cells.length;
      g.ids.forEach((id, k) => {
        const row = Math.floor(k / cols);
        const col = k % cols;
        cells.push({
          id,
          group: g.name,
          index: cells.length,
          col,
          row,
          q: col - (row - (row & 1)) / 2,
          r: row,
          x: gx + pitchX / 2 + col * pitchX + (row & 1 ? pitchX / 2 : 0),
          y: lineY + labelHeight + size + row * pitchY,
        });
      });
      const blockWidth = cols * pitchX + (rows > 1 ? pitchX / 2 : 0);
      outGroups.push({ name: g.name, x: gx, y: lineY, width: Math.min(slot, blockWidth), height: lineHeight, cols, rows, first, count: g.ids.length });
    }
    lineY += lineHeight + groupGap;
  }
  const height = groups.length === 0 ? 0 : lineY - groupGap;
  return { cells, groups: outGroups, width, height: Math.ceil(height), size };
}

/** The corners of a pointy-top hexagon of radius `size` around (x, y), as an SVG `points` string. */
export function hexPoints(x: number, y: number, size: number): string {
  let out = '';
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    out += `${(x + size * Math.cos(a)).toFixed(1)},${(y + size * Math.sin(a)).toFixed(1)} `;
  }
  return out.trimEnd();
}

/** Keys that move the keyboard focus in the grid. */
export type HexNavKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End';

/**
 * The cell the focus moves to from `index` on `key`: Left/Right step through the cells in order
 * (crossing into the neighbouring group), Up/Down go to the nearest cell of the row above/below
 * in the same group (staying put at the edge), Home/End to the first/last cell.
 */
export function hexNeighbor(layout: HexLayout, index: number, key: HexNavKey): number {
  const n = layout.cells.length;
  if (n === 0) return -1;
  const i = Math.min(Math.max(0, index), n - 1);
  switch (key) {
    case 'ArrowLeft':
      return Math.max(0, i - 1);
    case 'ArrowRight':
      return Math.min(n - 1, i + 1);
    case 'Home':
      return 0;
    case 'End':
      return n - 1;
    case 'ArrowUp':
    case 'ArrowDown': {
      const c = layout.cells[i];
      const targetRow = c.row + (key === 'ArrowDown' ? 1 : -1);
      let best = i;
      let bestDx = Number.POSITIVE_INFINITY;
      for (const o of layout.cells) {
        if (o.group !== c.group || o.row !== targetRow) continue;
        const dx = Math.abs(o.x - c.x);
        if (dx < bestDx) {
          bestDx = dx;
          best = o.index;
        }
      }
      return best;
    }
  }
}
