import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PanelFrame } from '../panels/PanelFrame/PanelFrame.js';
import { App } from './App.js';

describe('App (server render smoke test)', () => {
  it('renders the Insights page with every panel loading and its PromQL attached', () => {
    const html = renderToString(<App />);
    expect(html).toContain('data-testid="quantile-toggle"');
    expect(html).toContain('data-testid="panel-fleet-hexgrid"');
    const panels = [...html.matchAll(/data-testid="panel-([\w-]+)" data-state="(\w+)" data-queries="([^"]*)"/g)];
    expect(panels.length).toBeGreaterThan(10);
    for (const [, , state, queries] of panels) {
      expect(state).toBe('loading');
      expect(queries).not.toBe('[]');
    }
    expect(html).not.toMatch(/data-queries="[^"]*\$(?!__)\w/);
  });
});

describe('PanelFrame', () => {
  const panel = { id: 'p', title: 'P', description: 'What it shows.', emptyHint: 'Needs the gateway.' };
  it.each([
    ['loading', true, 'skeleton'],
    ['empty', false, 'Needs the gateway.'],
    ['error', false, 'parse error: unexpected'],
    ['ready', false, 'the chart'],
  ] as const)('%s', (status, loading, text) => {
    const html = renderToString(
      <PanelFrame panel={panel} status={status} loading={loading} error="1:5: parse error: unexpected" queries={['up']} hasData={status === 'ready'}>
        <div>the chart</div>
      </PanelFrame>,
    );
    expect(html).toContain(`data-state="${status}"`);
    expect(html).toContain(text);
    expect(html).toContain('data-queries="[&quot;up&quot;]"');
  });
});
