// ESLint flat config: typescript-eslint's type-checked recommended rules over everything we
// write (src, test, bench, the build script). `npm run lint` runs it with --max-warnings 0 and
// `npm test` runs it before the tiers. Each rule we tune says why.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'artifacts/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['esbuild.mjs', 'eslint.config.mjs', 'bench/*.mjs'] }, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits ends in a log line, never an unhandled rejection: await it, or hand
      // it to background() (src/util/background.ts); `void` on a promise is refused. VS Code's own
      // Thenables are not checked (checkThenables is off): a message resolves when it is dismissed
      // and a context key when it is set, and neither rejects; a chain that runs something after
      // the user's answer goes through background() like any other promise.
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
      // VS Code's event and command APIs take callbacks that may return a promise; what matters is
      // that the promise is handled, which no-floating-promises checks. Keep the check for
      // conditions (an `if (promise)` is always a bug) and spread, drop it for arguments/attributes.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      // Unused parameters named `_x` are deliberate (a callback's shape); tsc already reports the rest.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // An `async` function without `await` is how we implement a promise-returning interface
      // (a fake API, a provider method): it turns a throw into a rejection, which callers rely on.
      '@typescript-eslint/require-await': 'off',
      // Numbers and booleans in template strings read well and cannot print "[object Object]".
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
    },
  },
  {
    // Plain JavaScript build scripts: no type information to check against.
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // mocha's `describe`/`it` take functions whose returned promise mocha awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { ignoreVoid: true, allowForKnownSafeCalls: [{ from: 'package', name: ['describe', 'it', 'suite', 'test'], package: 'mocha' }] },
      ],
    },
  },
);
