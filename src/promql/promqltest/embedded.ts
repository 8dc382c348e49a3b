import { Engine } from '../engine/index.js';
import { exprToString, parseExpr } from '../parser/index.js';
import { TEST_ENGINE_SETTINGS } from './engine-settings.js';
import type { RunnerDeps } from './runner.js';

/**
 * The runner bound to Infersight's own parser and engine, set up as test.go's `NewTestEngine`
 * (`TEST_ENGINE_SETTINGS`): eval expressions are parsed with the engine's parser options.
 */
export function embeddedEngineDeps(): RunnerDeps {
  const parserOptions = new Engine(TEST_ENGINE_SETTINGS).parserOptions;
  return {
    newEngine: () => new Engine(TEST_ENGINE_SETTINGS),
    parseExpr: (input) => parseExpr(input, parserOptions),
    formatExpr: exprToString,
  };
}
