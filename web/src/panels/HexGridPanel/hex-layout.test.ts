import { describe, expect, it } from 'vitest';
import { hexNeighbor, hexPoints, layoutHexGrid, type HexInput, type HexLayout } from './hex-layout.js';

const fleet = (n: number, azs = ['us-east-1a', 'us-east-1b', 'us-east-1c']): HexInput[] =>
  Array.from({ length: n }, (_, i) => ({ id: `node-${i + 1}`, group: azs[(i * 7) % azs.length] }));

/** Every pair of centres at least a hexagon's width apart (pointy-top: √3·size). */
function assertNoOverlap(l: HexLayout): void {
  const minDist = Math.sqrt(3) * l.size - 1e-6;
  // Bucket by a grid of minDist cells so 1,000 cells stay fast.
  const grid = new Map<string, { x: number; y: number }[]>();
  const k = (x: number, y: number): string => `${Math.floor(x / minDist)},${Math.floor(y / minDist)}`;
  for (const c of l.cells) {
    const gx = Math.floor(c.x / minDist);
    const gy = Math.floor(c.y / minDist);
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const o of grid.get(`${gx + dx},${gy + dy}`) ?? []) {
          expect(Math.hypot(o.x - c.x, o.y - c.y)).toBeGreaterThanOrEqual(minDist);
        }
      }
    }
    const key = k(c.x, c.y);
    grid.set(key, [...(grid.get(key) ?? []), c]);
  }
}

describe('layoutHexGrid', () => {
  it('groups cells by AZ in natural order', () => {
    const l = layoutHexGrid(
      [
        { id: 'i10', group: 'b' },
        { id: 'i2', group: 'a' },
        { id: 'i1', group: 'b' },
        { id: 'i1', group: 'a' },
      ],
      { width: 800 },
    );
    expect(l.groups.map((g) => [g.name, g.first, g.count])).toEqual([
      ['a', 0, 2],
      ['b', 2, 2],
    ]);
    expect(l.cells.map((c) => `${c.group}/${c.id}`)).toEqual(['a/i1', 'a/i2', 'b/i1', 'b/i10']);
    expect(l.cells.map((c) => c.index)).toEqual([0, 1, 2, 3]);
  });

  it('is deterministic whatever the input order', () => {
    const cells = fleet(200);
    const a = layoutHexGrid(cells, { width: 1000 });
    const b = layoutHexGrid([...cells].reverse(), { width: 1000 });
    expect(b).toEqual(a);
  });

  it('uses offset rows with axial coordinates', () => {
    const l = layoutHexGrid(fleet(30, ['a']), { width: 200, maxSize: 10 });
    const g = l.groups[0];
    expect(g.cols).toBeGreaterThan(1);
    for (const c of l.cells) {
      expect(c.col + c.row * g.cols).toBe(c.index);
      expect(c.r).toBe(c.row);
      expect(c.q).toBe(c.col - (c.row - (c.row & 1)) / 2);
    }
    // Odd rows are shifted by half a hexagon.
    const row0 = l.cells.find((c) => c.row === 0 && c.col === 0)!;
    const row1 = l.cells.find((c) => c.row === 1 && c.col === 0)!;
    expect(row1.x - row0.x).toBeCloseTo((Math.sqrt(3) * l.size + 2) / 2);
  });

  it.each([1, 7, 50, 333, 1000])('places %i cells without overlap inside the bounds', (n) => {
    const l = layoutHexGrid(fleet(n), { width: 1200 });
    expect(l.cells).toHaveLength(n);
    assertNoOverlap(l);
    for (const c of l.cells) {
      const halfWidth = (Math.sqrt(3) / 2) * l.size;
      expect(c.x - halfWidth).toBeGreaterThanOrEqual(-1e-6);
      expect(c.x + halfWidth).toBeLessThanOrEqual(l.width + 1e-6);
      expect(c.y + l.size).toBeLessThanOrEqual(l.height + 1e-6);
    }
    // Groups do not overlap either.
    for (let i = 1; i < l.groups.length; i++) {
      const a = l.groups[i - 1];
      const b = l.groups[i];
      expect(a.y !== b.y || a.x + a.width <= b.x).toBe(true);
    }
  });

  it('shrinks hexagons to fit 1,000 instances in the height budget, and keeps few big', () => {
    const big = layoutHexGrid(fleet(7), { width: 1200 });
    const many = layoutHexGrid(fleet(1000), { width: 1200, maxHeight: 340 });
    expect(big.size).toBe(22);
    expect(many.size).toBeLessThan(big.size);
    expect(many.height).toBeLessThanOrEqual(340);
  });

  it('wraps many groups onto lines on a narrow screen', () => {
    const l = layoutHexGrid(fleet(60, ['a', 'b', 'c', 'd', 'e', 'f']), { width: 420 });
    expect(new Set(l.groups.map((g) => g.y)).size).toBeGreaterThan(1);
    assertNoOverlap(l);
  });

  it('handles no cells', () => {
    expect(layoutHexGrid([], { width: 500 })).toMatchObject({ cells: [], groups: [], height: 0 });
  });

  it('draws six corners', () => {
    expect(hexPoints(10, 10, 5).split(' ')).toHaveLength(6);
  });
});

describe('hexNeighbor', () => {
  const l = layoutHexGrid(fleet(40, ['a', 'b']), { width: 400, maxSize: 12 });
  it('steps through cells with Left/Right and jumps with Home/End', () => {
    expect(hexNeighbor(l, 0, 'ArrowLeft')).toBe(0);
    expect(hexNeighbor(l, 0, 'ArrowRight')).toBe(1);
    expect(hexNeighbor(l, 19, 'ArrowRight')).toBe(20);
    expect(hexNeighbor(l, 39, 'ArrowRight')).toBe(39);
    expect(hexNeighbor(l, 5, 'Home')).toBe(0);
    expect(hexNeighbor(l, 5, 'End')).toBe(39);
  });

  it('moves to the nearest cell of the next row within the group', () => {
    const g = l.groups[0];
    const down = hexNeighbor(l, 0, 'ArrowDown');
    expect(l.cells[down].row).toBe(1);
    expect(l.cells[down].group).toBe('a');
    expect(hexNeighbor(l, down, 'ArrowUp')).toBe(0);
    const lastRowCell = g.first + g.count - 1;
    expect(hexNeighbor(l, lastRowCell, 'ArrowDown')).toBe(lastRowCell);
    expect(hexNeighbor(layoutHexGrid([], { width: 100 }), 0, 'ArrowDown')).toBe(-1);
  });
});
