import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { HexGridOptions } from '../../../../src/dashboards/types.js';
import { RULES_GOLDEN } from '../../api/testdata/rules-golden.js';
import { matchCellAlerts } from './cell-alerts.js';
import { buildHexCells } from './hex-cells.js';
import { layoutHexGrid } from './hex-layout.js';
import { HexGrid } from './HexGrid.js';
import { HexTooltip } from './HexTooltip.js';

const OPTS: HexGridOptions = { cells: 'cells', views: { instance: 'instance' }, groupBy: 'az', health: [], filterVariable: 'instance' };
const cells = buildHexCells(
  [
    {
      refId: 'cells',
      unit: 'none',
      samples: [
        ['i-0a1', 'chat-llama-r1'],
        ['i-0b2', 'chat-llama-r2'],
        ['i-0c3', 'code-qwen-r1'],
      ].map(([instance, replica]) => ({ metric: { instance, replica, az: 'us-east-1a' }, value: [1, '1'] })),
    },
  ],
  OPTS,
  'instance',
  [],
);
const alerts = matchCellAlerts(cells, RULES_GOLDEN.alerts.data.alerts);
const layout = layoutHexGrid(
  cells.map((c) => ({ id: c.id, group: c.group })),
  { width: 600, maxHeight: 300, maxSize: 26 },
);
const ordered = layout.cells.map((lc) => cells.find((c) => c.id === lc.id)!);

describe('alert state on the hex grid (server render)', () => {
  it('marks each cell with its worst alert state, in data-alert and in its accessible name', () => {
    const html = renderToString(<HexGrid layout={layout} cells={ordered} selected={new Set()} focusIndex={0} alerts={alerts} ariaLabel="grid" />);
    const attr = (tag: string, name: string): string => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1] ?? '-';
    const got = Object.fromEntries([...html.matchAll(/<polygon[^>]*data-testid="hex-cell"[^>]*>/g)].map(([tag]) => [attr(tag, 'data-instance'), [attr(tag, 'data-alert'), attr(tag, 'aria-label')]]));
    expect(got).toEqual({
      'i-0a1': ['firing', 'i-0a1, us-east-1a: No data, 1 alert firing'],
      'i-0b2': ['pending', 'i-0b2, us-east-1a: No data, 1 alert pending'],
      'i-0c3': ['-', 'i-0c3, us-east-1a: No data'],
    });
    expect(html.match(/class="hex-alert firing"/g)).toHaveLength(1);
    expect(html.match(/class="hex-alert pending"/g)).toHaveLength(1);
  });

  it('lists the alerts in the hover card', () => {
    const cell = cells.find((c) => c.value === 'i-0a1')!;
    const html = renderToString(<HexTooltip cell={cell} alerts={alerts.get(cell.id)} x={10} y={10} size={20} width={600} queries={[]} rules={[]} lifecycle={{}} cellsRefId="cells" />);
    expect(html).toContain('data-testid="hex-tooltip-alerts" data-alert="firing"');
    expect(html).toContain('<b>KVCacheFull</b>');
    expect(html).toContain('KV cache of chat-llama-r1 at 97%');
  });
});
