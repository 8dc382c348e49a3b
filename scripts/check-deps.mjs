#!/usr/bin/env node
// check-deps: enforces the module import directions of docs/architecture.md ("Which way imports point") over
// src/ and web/, with no dependencies beyond Node itself.
//
//   node scripts/check-deps.mjs [--root <dir>]
//
// Every src/**/*.ts file counts, tests included. What test code (`*.test.ts`, anything under a
// `testing/` or `testdata/` folder) may do in addition: import `vitest` and `fast-check`, and
// import the `testing/` helpers of its own module and of the modules its module may import.
//
// An import from another module goes through that module's public surface, `src/<module>/index.ts`
// (web/ is not checked for this yet); only `testing/` helpers and `testdata/` files are imported
// by their own path.
//
// Violations print one per line, `src/a/x.ts: imports src/tsdb (tsdb may not be imported by a)`,
// and the exit code is 1. Docs: docs/architecture.md.
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// ---------------------------------------------------------------------------------------------
// The table. Change it together with docs/architecture.md.
// ---------------------------------------------------------------------------------------------

/** The views over the query interface: they see PromQL results, never storage. */
const VIEW_DEPS = ['model', 'query', 'semconv'];

/** For each module under src/, the modules it may import. Nothing lists `cli`; only `cli` lists `server`. */
const ALLOWED = {
  model: [],
  query: ['model'],
  semconv: ['model'],
  wire: ['model'],
  // The Node-side HTTP leaf (web config, auth, request guard, listeners): docs/architecture.md.
  http: ['model'],
  // Prometheus' configuration pieces shared by scrape, rules and the notifier: docs/design/config-module.md.
  config: ['model'],
  storage: ['model', 'wire'],
  normalize: ['model', 'storage', 'semconv'],
  tsdb: ['model', 'storage'],
  promql: ['model', 'storage', 'query'],
  ingest: ['model', 'wire', 'storage', 'http', 'config'],
  // semconv is pure data: the gateway writes catalog names, types and help texts from it.
  gateway: ['model', 'wire', 'semconv', 'storage', 'http'],
  sim: ['model', 'wire', 'semconv', 'http'],
  fleet: VIEW_DEPS,
  // Rules read through a QueryClient and write through an Appendable: docs/design/rules-module.md.
  rules: [...VIEW_DEPS, 'config', 'storage'],
  diagnose: VIEW_DEPS,
  // Quality and cost read their own YAML files (rubrics, price and benchmark catalogs) with the
  // position-keeping reader of src/config: docs/design/cost-quality-deps.md.
  quality: [...VIEW_DEPS, 'config'],
  cost: [...VIEW_DEPS, 'config'],
  dashboards: VIEW_DEPS,
  server: [
    'model', 'query', 'semconv', 'wire', 'http', 'config', 'storage', 'normalize', 'tsdb', 'promql', 'ingest',
    'gateway', 'sim', 'fleet', 'rules', 'diagnose', 'quality', 'cost', 'dashboards',
  ],
  cli: [
    'model', 'query', 'semconv', 'wire', 'http', 'config', 'storage', 'normalize', 'tsdb', 'promql', 'ingest',
    'gateway', 'sim', 'fleet', 'rules', 'diagnose', 'quality', 'cost', 'dashboards', 'server',
  ],
};

/** The values of src/storage's error registry: code that may take only types still needs these. */
const STORAGE_ERROR_VALUES = ['STORAGE_ERRORS', 'StorageError', 'StorageErrorCode', 'isStorageError'];

/**
 * Edges that may carry types only (`import type`, `type X` specifiers), apart from the listed
 * values. docs/architecture.md: normalize takes "storage types", ingest and gateway "Appendable types only".
 * Test code is exempt (it builds fixtures from storage's testing/ helpers).
 */
const TYPES_ONLY = {
  normalize: { storage: STORAGE_ERROR_VALUES },
  ingest: { storage: STORAGE_ERROR_VALUES },
  gateway: { storage: STORAGE_ERROR_VALUES },
  rules: { storage: STORAGE_ERROR_VALUES },
};

/** The src/ modules that web/ may import (types and data; web talks to the server over HTTP only). */
const WEB_ALLOWED = ['query', 'dashboards', 'semconv'];

/** Modules that also run in the browser: no Node builtins, and only the packages listed here. */
const BROWSER_SAFE = { model: ['re2js'], query: [], semconv: [], dashboards: [] };

/** Packages that only test code may import. */
const TEST_ONLY_PACKAGES = ['vitest', 'fast-check'];

// ---------------------------------------------------------------------------------------------

const SOURCE_EXTENSIONS = ['.ts', '.mts', '.cts', '.tsx'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git']);
const BUILTINS = new Set(builtinModules);

/** Fails fast on a typo in the tables above: every name they mention must be a module. */
function checkTables() {
  const mentioned = [
    ...Object.values(ALLOWED).flat(),
    ...Object.keys(TYPES_ONLY),
    ...Object.values(TYPES_ONLY).flatMap((targets) => Object.keys(targets)),
    ...WEB_ALLOWED,
    ...Object.keys(BROWSER_SAFE),
  ];
  const unknown = [...new Set(mentioned.filter((m) => !Object.hasOwn(ALLOWED, m)))];
  if (unknown.length > 0) {
    process.stderr.write(`check-deps: the tables name unknown modules: ${unknown.join(', ')}\n`);
    process.exit(2);
  }
}

function parseArgs(argv) {
  let root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--root' && i + 1 < argv.length) root = resolve(argv[++i]);
    else if (arg.startsWith('--root=')) root = resolve(arg.slice('--root='.length));
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write('usage: node scripts/check-deps.mjs [--root <dir>]\n');
      process.exit(0);
    } else {
      process.stderr.write(`check-deps: unknown argument ${arg}\n`);
      process.exit(2);
    }
  }
  return { root };
}

/** Lists source files under `dir` (absolute paths, sorted), skipping build output and packages. */
function walk(dir) {
  const out = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if (err.code === 'ENOENT') return out;
    throw err;
  }
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIPPED_DIRS.has(e.name)) out.push(...walk(full));
    } else if (e.isFile() && SOURCE_EXTENSIONS.some((ext) => e.name.endsWith(ext))) {
      out.push(full);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// A small tokenizer: enough of JavaScript/TypeScript lexing to skip comments, strings, template
// literals and regular expressions, so that an `import` inside any of them is not counted.
// ---------------------------------------------------------------------------------------------

const ID_START = /[\p{ID_Start}$_]/u;
const ID_PART = /[\p{ID_Continue}$\u200c\u200d]/u;
/** After these keywords a `/` starts a regular expression, not a division. */
const REGEX_AFTER_KEYWORD = new Set([
  'return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do',
  'else', 'yield', 'await',
]);

/**
 * Splits `src` into tokens `{ kind: 'id' | 'str' | 'punct' | 'other', value, line }`. Strings
 * carry their decoded-enough value (escapes kept as written); templates and regexes become
 * `other` tokens without content.
 */
function tokenize(src) {
  const tokens = [];
  const templateDepth = []; // brace depth at each `${` still open
  let braceDepth = 0;
  let line = 1;
  let i = 0;
  const n = src.length;
  const prevAllowsRegex = () => {
    const t = tokens[tokens.length - 1];
    if (t === undefined) return true;
    if (t.kind === 'punct') return !(t.value === ')' || t.value === ']' || t.value === '}');
    if (t.kind === 'id') return REGEX_AFTER_KEYWORD.has(t.value);
    return false;
  };
  const scanTemplate = () => {
    // i is just past a backtick or a closing `}` of a substitution.
    while (i < n) {
      const c = src[i];
      if (c === '\\') {
        i += 2;
        continue;
      }
      if (c === '\n') line++;
      if (c === '`') {
        i++;
        tokens.push({ kind: 'other', value: '`', line });
        return;
      }
      if (c === '$' && src[i + 1] === '{') {
        i += 2;
        templateDepth.push(braceDepth);
        braceDepth++;
        tokens.push({ kind: 'punct', value: '${', line });
        return;
      }
      i++;
    }
  };
  while (i < n) {
    const c = src[i];
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\ufeff') {
      i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      for (let k = i; k < stop; k++) if (src[k] === '\n') line++;
      i = stop;
      continue;
    }
    if (c === '"' || c === "'") {
      const startLine = line;
      let j = i + 1;
      let value = '';
      while (j < n && src[j] !== c && src[j] !== '\n') {
        if (src[j] === '\\') {
          value += src[j + 1] ?? '';
          j += 2;
        } else {
          value += src[j];
          j++;
        }
      }
      i = j + 1;
      tokens.push({ kind: 'str', value, line: startLine });
      continue;
    }
    if (c === '`') {
      i++;
      scanTemplate();
      continue;
    }
    if (c === '/' && prevAllowsRegex()) {
      let j = i + 1;
      let inClass = false;
      while (j < n && src[j] !== '\n') {
        const d = src[j];
        if (d === '\\') {
          j += 2;
          continue;
        }
        if (inClass) {
          if (d === ']') inClass = false;
        } else if (d === '[') inClass = true;
        else if (d === '/') break;
        j++;
      }
      j++;
      while (j < n && ID_PART.test(src[j])) j++;
      i = j;
      tokens.push({ kind: 'other', value: '/re/', line });
      continue;
    }
    if (ID_START.test(c) || c === '\\') {
      let j = i + 1;
      while (j < n && ID_PART.test(src[j])) j++;
      tokens.push({ kind: 'id', value: src.slice(i, j), line });
      i = j;
      continue;
    }
    if (c >= '0' && c <= '9') {
      let j = i + 1;
      while (j < n && /[0-9a-zA-Z_.]/.test(src[j])) j++;
      tokens.push({ kind: 'other', value: src.slice(i, j), line });
      i = j;
      continue;
    }
    if (c === '{') {
      braceDepth++;
    } else if (c === '}') {
      braceDepth--;
      if (templateDepth.length > 0 && templateDepth[templateDepth.length - 1] === braceDepth) {
        templateDepth.pop();
        i++;
        tokens.push({ kind: 'punct', value: '}', line });
        scanTemplate();
        continue;
      }
    } else if (c === '.' && src[i + 1] === '.' && src[i + 2] === '.') {
      tokens.push({ kind: 'punct', value: '...', line });
      i += 3;
      continue;
    }
    tokens.push({ kind: 'punct', value: c, line });
    i++;
  }
  return tokens;
}

/** The name recorded for `import 'x'`, which runs x for its side effects. */
const SIDE_EFFECTS = '(side effects)';

const isPunct = (t, v) => t !== undefined && t.kind === 'punct' && t.value === v;
const isId = (t, v) => t !== undefined && t.kind === 'id' && (v === undefined || t.value === v);

/**
 * Reads a `{ a, type b, c as d }` list starting at the `{` at `start`. Returns the imported
 * names split into type and value names, and the index just past the `}`.
 */
function readNamedList(tokens, start) {
  const typeNames = [];
  const valueNames = [];
  let element = [];
  const flush = () => {
    if (element.length === 0) return;
    const first = element[0];
    const isTypeElement =
      first === 'type' && element.length >= 2 && !(element.length === 3 && element[1] === 'as');
    if (isTypeElement) typeNames.push(element[1]);
    else valueNames.push(first);
    element = [];
  };
  let j = start + 1;
  while (j < tokens.length && !isPunct(tokens[j], '}')) {
    const t = tokens[j];
    if (isPunct(t, ',')) flush();
    else element.push(t.value);
    j++;
  }
  flush();
  return { typeNames, valueNames, end: j + 1 };
}

/** Reads `from 'x'` at `j`; returns the specifier or undefined. */
function readFrom(tokens, j) {
  const spec = tokens[j + 1];
  return isId(tokens[j], 'from') && spec !== undefined && spec.kind === 'str' ? spec.value : undefined;
}

/**
 * Reads what follows `import` (and `type`): `X`, `X, { ... }`, `X, * as ns`, `{ ... }` or
 * `* as ns`, then `from 'x'`. Returns undefined for anything else (`import x = require(...)`).
 */
function readImportClause(tokens, j) {
  const valueNames = [];
  const typeNames = [];
  if (isId(tokens[j]) && tokens[j].value !== 'from') {
    valueNames.push('default');
    j++;
    if (!isPunct(tokens[j], ',')) {
      const spec = readFrom(tokens, j);
      return spec === undefined ? undefined : { spec, valueNames, typeNames };
    }
    j++;
  } else if (isId(tokens[j], 'from') && isPunct(tokens[j + 1], ',')) {
    // `import from, { a } from 'x'`: a default binding named `from`.
    valueNames.push('default');
    j += 2;
  }
  if (isPunct(tokens[j], '{')) {
    const list = readNamedList(tokens, j);
    valueNames.push(...list.valueNames);
    typeNames.push(...list.typeNames);
    j = list.end;
  } else if (isPunct(tokens[j], '*') && isId(tokens[j + 1], 'as') && isId(tokens[j + 2])) {
    valueNames.push('*');
    j += 3;
  } else if (valueNames.length === 0 || isId(tokens[j], 'from')) {
    return undefined;
  }
  const spec = readFrom(tokens, j);
  return spec === undefined ? undefined : { spec, valueNames, typeNames };
}

/** Reads what follows `export` (and `type`): `* from 'x'`, `* as ns from 'x'` or `{ ... } from 'x'`. */
function readExportFromClause(tokens, j) {
  if (isPunct(tokens[j], '*')) {
    j++;
    if (isId(tokens[j], 'as') && isId(tokens[j + 1])) j += 2;
    const spec = readFrom(tokens, j);
    return spec === undefined ? undefined : { spec, valueNames: ['*'], typeNames: [] };
  }
  if (isPunct(tokens[j], '{')) {
    const list = readNamedList(tokens, j);
    const spec = readFrom(tokens, list.end);
    return spec === undefined ? undefined : { spec, valueNames: list.valueNames, typeNames: list.typeNames };
  }
  return undefined;
}

/**
 * Finds every import in `src`: static imports, `export ... from`, and `import()` with a
 * string literal. Returns `{ imports: [{ spec, line, typeOnly, valueNames }], dynamic: [line] }`
 * where `dynamic` lists `import()` calls whose argument is not a literal.
 */
function findImports(src) {
  const tokens = tokenize(src);
  const imports = [];
  const dynamic = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== 'id' || (t.value !== 'import' && t.value !== 'export')) continue;
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    // `obj.import`, `{ import: 1 }`, `import.meta`.
    if (isPunct(prev, '.') || isPunct(next, ':') || isPunct(next, '.')) continue;

    if (t.value === 'import' && isPunct(next, '(')) {
      const arg = tokens[i + 2];
      const after = tokens[i + 3];
      if (arg !== undefined && arg.kind === 'str' && (isPunct(after, ')') || isPunct(after, ','))) {
        // `typeof import('x')` and `import('x').T` in a type position load nothing at run time.
        imports.push({ spec: arg.value, line: t.line, typeOnly: isId(prev, 'typeof'), valueNames: ['*'] });
      } else {
        dynamic.push(t.line);
      }
      continue;
    }

    let j = i + 1;
    let typeOnly = false;
    if (t.value === 'import') {
      if (next !== undefined && next.kind === 'str') {
        imports.push({ spec: next.value, line: t.line, typeOnly: false, valueNames: [SIDE_EFFECTS] });
        continue;
      }
      // `import type X from`, `import type { ... } from`, `import type * as ns from`; but
      // `import type from 'x'` and `import type, { a } from 'x'` import a binding named `type`.
      const after = tokens[i + 2];
      if (isId(next, 'type') && !isId(after, 'from') && !isPunct(after, ',') && !isPunct(after, '=')) {
        typeOnly = true;
        j++;
      }
    } else if (isId(next, 'type') && (isPunct(tokens[i + 2], '{') || isPunct(tokens[i + 2], '*'))) {
      typeOnly = true;
      j++;
    }
    const clause = t.value === 'import' ? readImportClause(tokens, j) : readExportFromClause(tokens, j);
    if (clause === undefined) continue;
    const { spec, valueNames, typeNames } = clause;
    imports.push({
      spec,
      line: t.line,
      typeOnly: typeOnly || (valueNames.length === 0 && typeNames.length > 0),
      valueNames: typeOnly ? [] : valueNames,
    });
  }
  return { imports, dynamic };
}

// ---------------------------------------------------------------------------------------------
// Checking.
// ---------------------------------------------------------------------------------------------

const toPosix = (p) => p.split(sep).join('/');

/** `src/<module>/...` → module name; anything else → undefined. */
function moduleOf(relPath) {
  const parts = relPath.split('/');
  return parts[0] === 'src' && parts.length >= 3 ? parts[1] : undefined;
}

/** Test code: `*.test.ts`, or anything inside a `testing/` or `testdata/` folder. */
function isTestCode(relPath) {
  const parts = relPath.split('/');
  return /\.test\.[cm]?tsx?$/.test(relPath) || parts.includes('testing') || parts.includes('testdata');
}

/**
 * Whether `target` (a resolved `src/<module>/...` path) is `<module>`'s public surface: its
 * `index.ts`, written as `index.js` (or `index.ts`, `index`) in a specifier.
 */
function isModuleIndex(target) {
  return /^src\/[^/]+\/index(?:\.[cm]?[jt]s)?$/.test(target);
}

/** Paths that other modules import by their own path: shared test helpers and test data. */
function isImportedByPath(target) {
  const parts = target.split('/');
  return parts.includes('testing') || parts.includes('testdata');
}

/** A module's shared test helpers live in `src/<module>/testing/`. */
function isTestHelper(relPath) {
  return relPath.split('/').includes('testing');
}

function packageName(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function isBuiltin(spec) {
  return spec.startsWith('node:') || BUILTINS.has(spec) || BUILTINS.has(spec.split('/')[0]);
}

function main() {
  checkTables();
  const { root } = parseArgs(process.argv.slice(2));
  const srcFiles = walk(join(root, 'src'));
  const webFiles = walk(join(root, 'web'));
  const violations = new Set();
  const unknownModules = new Set();
  const warnings = [];
  /** module → module → first `file` that made the edge (for cycle reports). */
  const edges = new Map();
  let importCount = 0;

  const checkFile = (abs, isWeb) => {
    const rel = toPosix(relative(root, abs));
    const from = isWeb ? 'web' : moduleOf(rel);
    const testCode = isTestCode(rel);
    if (!isWeb) {
      if (from === undefined) {
        violations.add(`${rel}: not inside a module folder (src/<module>/)`);
      } else if (!Object.hasOwn(ALLOWED, from)) {
        unknownModules.add(from);
      }
    }
    const { imports, dynamic } = findImports(readFileSync(abs, 'utf8'));
    for (const line of dynamic) {
      warnings.push(`${rel}:${line}: import() with a computed specifier cannot be checked`);
    }
    for (const imp of imports) {
      importCount++;
      const { spec } = imp;
      const isRelative = spec.startsWith('.') || spec.startsWith('/');
      if (!isRelative) {
        // A package or a builtin.
        if (isWeb) continue;
        if (from !== undefined && Object.hasOwn(BROWSER_SAFE, from)) {
          if (isBuiltin(spec)) {
            violations.add(`${rel}: imports ${spec} (${from} may not import Node builtins)`);
            continue;
          }
          const pkg = packageName(spec);
          const allowed = BROWSER_SAFE[from].includes(pkg) || (testCode && TEST_ONLY_PACKAGES.includes(pkg));
          if (!allowed) violations.add(`${rel}: imports ${pkg} (${from} may not import packages)`);
          continue;
        }
        if (!testCode && !isBuiltin(spec) && TEST_ONLY_PACKAGES.includes(packageName(spec))) {
          violations.add(`${rel}: imports ${packageName(spec)} (only test code may import ${packageName(spec)})`);
        }
        continue;
      }

      const target = toPosix(relative(root, resolve(dirname(abs), spec)));
      const targetModule = moduleOf(target);
      if (target.startsWith('src/') && targetModule === undefined) {
        violations.add(`${rel}: imports ${target} (not inside a module folder)`);
        continue;
      }
      if (targetModule === undefined) {
        // Outside src/: web's own files are fine; src may read only JSON (package.json) from outside.
        if (!isWeb && !target.endsWith('.json')) {
          violations.add(`${rel}: imports ${target} (src may not import from outside src/)`);
        }
        continue;
      }
      if (!isWeb && isTestHelper(target) && !testCode) {
        violations.add(`${rel}: imports ${target} (only test code may import test helpers)`);
        continue;
      }
      if (targetModule === from) continue;

      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(targetModule)) edges.get(from).set(targetModule, rel);

      const allowedTargets = isWeb ? WEB_ALLOWED : Object.hasOwn(ALLOWED, from) ? ALLOWED[from] : undefined;
      if (allowedTargets === undefined) continue; // unknown module: reported once below
      if (!allowedTargets.includes(targetModule)) {
        violations.add(`${rel}: imports src/${targetModule} (${targetModule} may not be imported by ${from})`);
        continue;
      }
      if (!isWeb && !isModuleIndex(target) && !isImportedByPath(target)) {
        violations.add(`${rel}: imports ${target} (bypasses src/${targetModule}/index.ts, the module's public surface)`);
        continue;
      }
      const valuesAllowed =
        !isWeb && !testCode && Object.hasOwn(TYPES_ONLY, from) ? TYPES_ONLY[from][targetModule] : undefined;
      if (valuesAllowed !== undefined && !imp.typeOnly) {
        const why = `${from} may import only types from ${targetModule}, and its error codes`;
        for (const name of imp.valueNames) {
          if (name === SIDE_EFFECTS) violations.add(`${rel}: imports ${target} for its side effects (${why})`);
          else if (!valuesAllowed.includes(name)) violations.add(`${rel}: imports value ${name} from src/${targetModule} (${why})`);
        }
      }
    }
  };

  for (const f of srcFiles) checkFile(f, false);
  for (const f of webFiles) checkFile(f, true);

  for (const m of unknownModules) {
    violations.add(`src/${m}: not a module in the table (add it to scripts/check-deps.mjs and docs/architecture.md)`);
  }
  for (const cycle of findCycles(edges)) {
    const steps = cycle.slice(0, -1).map((m, k) => `${edges.get(m).get(cycle[k + 1])} imports src/${cycle[k + 1]}`);
    violations.add(`cycle: ${cycle.join(' -> ')} (${steps.join('; ')})`);
  }

  for (const w of warnings) process.stderr.write(`check-deps: warning: ${w}\n`);
  const fileCount = srcFiles.length + webFiles.length;
  if (violations.size > 0) {
    const lines = [...violations].sort();
    process.stderr.write(lines.join('\n') + '\n');
    process.stderr.write(`check-deps: ${fileCount} files, ${importCount} imports, ${lines.length} violations\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`check-deps: ${fileCount} files, ${importCount} imports, OK\n`);
}

/**
 * Returns one cycle (as `[a, b, ..., a]`) for each strongly connected component of the
 * module graph that has more than one module (Tarjan's algorithm).
 */
function findCycles(edges) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  let counter = 0;
  const succ = (v) => [...(edges.get(v)?.keys() ?? [])].sort();
  const strongConnect = (v) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of succ(v)) {
      if (!index.has(w)) {
        strongConnect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component);
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) strongConnect(v);

  // Within each component, walk from its first module (by name) back to itself.
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0];
    const path = [start];
    const seen = new Set([start]);
    const dfs = (v) => {
      for (const w of succ(v)) {
        if (!members.has(w)) continue;
        if (w === start) {
          path.push(w);
          return true;
        }
        if (seen.has(w)) continue;
        seen.add(w);
        path.push(w);
        if (dfs(w)) return true;
        path.pop();
      }
      return false;
    };
    dfs(start);
    return path;
  });
}

main();
