import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exprToString, parseExpr, prettify } from './index.js';

/**
 * Every `eval` expression of the upstream promqltest files (Prometheus v3.14.0) is valid PromQL;
 * test.go parses them with every feature on. Each must parse, and printing must be stable:
 * parse(print(parse(x))) prints the same text.
 */
const INDEX = resolve(import.meta.dirname, '../../../../shared/conformance/promqltest/index.tsv');
const ALL_ON = {
  enableExperimentalFunctions: true,
  enableDurationExpressions: true,
  enableExtendedRangeSelectors: true,
  enableBinopFillModifiers: true,
};

interface Row {
  readonly where: string;
  readonly expr: string;
}

function readRows(): Row[] {
  const lines = readFileSync(INDEX, 'utf8').split('\n');
  const header = lines[0].split('\t');
  const exprCol = header.indexOf('expr');
  return lines
    .slice(1)
    .filter((l) => l !== '')
    .map((l) => {
      const cols = l.split('\t');
      return { where: `${cols[0]}:${cols[1]}`, expr: cols[exprCol] };
    });
}

const present = existsSync(INDEX);
if (!present && process.env.CI === 'true') {
  throw new Error(`conformance data missing under CI: ${INDEX}`);
}

describe.skipIf(!present)('promqltest conformance expressions (needs ../shared/conformance/promqltest/index.tsv)', () => {
  const rows = present ? readRows() : [];

  it('has all 2,195 eval expressions', () => {
    expect(rows.length).toBe(2195);
  });

  it('parses every expression with all features on, and prints each stably', () => {
    const failures: string[] = [];
    for (const { where, expr } of rows) {
      try {
        const printed = exprToString(parseExpr(expr, ALL_ON));
        const reprinted = exprToString(parseExpr(printed, ALL_ON));
        if (reprinted !== printed) failures.push(`${where}: ${expr}\n  printed   ${printed}\n  reprinted ${reprinted}`);
        prettify(parseExpr(printed, ALL_ON));
      } catch (e) {
        failures.push(`${where}: ${expr}\n  ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
