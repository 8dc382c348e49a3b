// ESLint flat config. Lint encodes the architecture (docs/architecture.md, How it is enforced): no floating
// promises, type-only imports where possible, no `console` outside the CLI and tooling, and
// no Node builtins in the modules that also run in the browser (model, query, semconv, dashboards).
// Module-to-module import directions and cycles are checked by scripts/check-deps.mjs, which
// reads the table in docs/architecture.md; this file does not repeat that table.
import { builtinModules } from 'node:module';

import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** TypeScript that belongs to a tsconfig.json project (root-level *.ts: see allowDefaultProject). */
const TS_FILES = ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', '*.ts', 'web/src/**/*.{ts,tsx}', 'web/*.ts'];

/** Plain JavaScript: scripts, the bin launcher, this file. Linted without type information. */
const JS_FILES = ['**/*.js', '**/*.mjs', '**/*.cjs'];

/** Test code: unit tests beside the code, the test/ tiers, and shared helpers under testing/. */
const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', 'test/**/*.ts', 'src/**/testing/**/*.ts', 'web/src/testing/**/*.ts'];

/** Modules that also run in the browser (web/ imports query, semconv and dashboards, which use model). */
const BROWSER_SAFE = ['src/model/**', 'src/query/**', 'src/semconv/**', 'src/dashboards/**', 'web/src/**'];

/** The globals Node scripts use; listed here so the config needs no `globals` package. */
const NODE_GLOBALS = Object.fromEntries(
  [
    'AbortController',
    'AbortSignal',
    'Buffer',
    'URL',
    'URLSearchParams',
    'TextDecoder',
    'TextEncoder',
    'clearImmediate',
    'clearInterval',
    'clearTimeout',
    'console',
    'fetch',
    'globalThis',
    'performance',
    'process',
    'queueMicrotask',
    'setImmediate',
    'setInterval',
    'setTimeout',
    'structuredClone',
  ].map((name) => [name, 'readonly']),
);

const BUILTIN_MESSAGE =
  'model, query, semconv and dashboards run in the browser too: no Node builtins (pass what you need in, or move the code to a Node-side module).';

/** Bare builtin names (`fs`, `fs/promises`, ...); `node:*` is covered by a pattern. */
const BARE_BUILTINS = builtinModules.filter((name) => !name.startsWith('_') && !name.startsWith('node:'));

export default defineConfig(
  globalIgnores([
    'dist/',
    'coverage/',
    'data/',
    '.tmp/',
    'web/dist/',
    // Generated goldens and fixtures; TypeScript scripts kept beside them are still linted.
    '**/testdata/**/*',
    '!**/testdata/**/*.ts',
  ]),

  {
    name: 'infersight/linter-options',
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },

  {
    name: 'infersight/typescript',
    files: TS_FILES,
    extends: [js.configs.recommended, tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: {
          // Root-level config files (vitest.config.ts, web/vite.config.ts) are outside any
          // tsconfig's include; web/src has its own (web/tsconfig.json: DOM, JSX).
          allowDefaultProject: ['*.ts', 'web/*.ts'],
          defaultProject: 'tsconfig.json',
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // docs/architecture.md (How it is enforced): no floating promises; type-only imports where possible.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: true },
      ],
      '@typescript-eslint/consistent-type-exports': ['error', { fixMixedExportsWithInlineTypeSpecifier: true }],
      // With verbatimModuleSyntax, `import { type A } from 'x'` keeps a side-effect import of x.
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Numbers, booleans and nullish values read fine in messages (`exited with ${code}` where
      // code is `number | null`); objects (`[object Object]`) and `any` do not. `never` is
      // allowed for defensive messages about values the types say cannot occur
      // (`unknown record type ${r.type}` after an exhaustive guard).
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true, allowNullish: true, allowNever: true, allowAny: false, allowRegExp: false },
      ],
      // Passing a caught `unknown` on (`catch (e) { reject(e); }`) is fine, as `throw e` is for
      // only-throw-error; without this, the only way out is a cast that another rule flags.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],

      // Hot paths index typed arrays and maps whose presence an invariant guarantees.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // tsconfig has noUncheckedIndexedAccess off, so `arr[i] === undefined` guards read as
      // "unnecessary" to this rule while being exactly right at runtime.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // Implementations of Promise-returning contracts are often async without awaiting.
      '@typescript-eslint/require-await': 'off',
      // Bit-twiddling and explicit loops are intentional in codecs and chunk encoders.
      '@typescript-eslint/prefer-for-of': 'off',
      // A type parameter used once (`decode<T>(): T` at a trust boundary) is a deliberate shape.
      '@typescript-eslint/no-unnecessary-type-parameters': 'off',
      // `void` in unions (callbacks that may return a Promise or nothing) is idiomatic here.
      '@typescript-eslint/no-invalid-void-type': 'off',
      // `expect(() => app.rollback()).toThrow()` is the idiom for asserting a throw.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // Namespaces of static helpers (e.g. `Labels`) are a deliberate API shape.
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },

  {
    name: 'infersight/javascript',
    files: JS_FILES,
    extends: [js.configs.recommended],
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: NODE_GLOBALS,
    },
    rules: {
      'no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },

  {
    name: 'infersight/tests',
    files: TEST_FILES,
    rules: {
      // Decoded HTTP bodies and JSON goldens are `any`; tests assert on them directly.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // `expect(obj.method)` and spies pass methods around unbound on purpose.
      '@typescript-eslint/unbound-method': 'off',
    },
  },

  // docs/architecture.md (How it is enforced): no console outside the CLI (use the Logger from src/model); tooling may print.
  {
    name: 'infersight/no-console',
    files: [...TS_FILES, ...JS_FILES],
    ignores: ['src/cli/**', 'scripts/**', 'bench/**', 'bin/**'],
    rules: { 'no-console': 'error' },
  },

  // docs/architecture.md (How it is enforced): no Node builtins in model, query, semconv (tests included).
  {
    name: 'infersight/browser-safe-modules',
    files: BROWSER_SAFE,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: BARE_BUILTINS.map((name) => ({ name, message: BUILTIN_MESSAGE })),
          patterns: [{ group: ['node:*'], message: BUILTIN_MESSAGE }],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.value=/^node:/]',
          message: BUILTIN_MESSAGE,
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['Buffer', 'process', 'require', 'global', '__dirname', '__filename', 'setImmediate'].map((name) => ({
          name,
          message: BUILTIN_MESSAGE,
        })),
      ],
    },
  },
);
