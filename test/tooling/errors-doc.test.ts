import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GATEWAY_ERRORS } from '../../src/gateway/index.js';
import { HTTP_ERRORS } from '../../src/http/index.js';
import { INGEST_ERRORS } from '../../src/ingest/index.js';
import type { ErrorRegistry } from '../../src/model/index.js';
import { PROMQL_ERRORS } from '../../src/promql/index.js';
import { STORAGE_ERRORS } from '../../src/storage/index.js';
import { WIRE_ERRORS } from '../../src/wire/index.js';
import { errorTables, renderErrorsDoc } from '../../scripts/errors-doc.js';

const PAGE = new URL('../../docs/errors.md', import.meta.url);
const REGISTRIES: readonly ErrorRegistry[] = [STORAGE_ERRORS, INGEST_ERRORS, WIRE_ERRORS, PROMQL_ERRORS, GATEWAY_ERRORS, HTTP_ERRORS];

describe('docs/errors.md', () => {
  it('has the tables the registries give (run `npm run gen-errors-doc` after changing a registry)', () => {
    const page = readFileSync(PAGE, 'utf8');
    expect(renderErrorsDoc(page)).toBe(page);
  });

  it('lists every registered code exactly once, and no code is registered twice', () => {
    const page = readFileSync(PAGE, 'utf8');
    const codes = REGISTRIES.flatMap((r) => Object.values(r).map((s) => s.code));
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(page.split(`| \`${code}\` |`).length - 1, code).toBe(1);
  });

  it('refuses a page that lacks the markers of a table', () => {
    const page = readFileSync(PAGE, 'utf8').replace('<!-- errors:wire -->', '');
    expect(() => renderErrorsDoc(page)).toThrow('no <!-- errors:wire --> … <!-- /errors:wire --> markers for the wire table');
  });

  it('renders an entry with a note as a numbered footnote', () => {
    const storage = errorTables().get('storage') ?? '';
    expect(storage).toContain('| `ERR_INVALID_LABELS` | A label set lacks a metric name (an empty set included) or has an empty label name. | 400 ¹ | 400 `bad_data` |');
    expect(storage).toContain('| `ERR_LIMIT_EXCEEDED` | A configured limit (series, samples per request) was exceeded. | 400 ² | 422 `execution` |');
    expect(storage).toMatch(/\n² Not retried, because/);
  });
});
