// Lint rules that catch defects and hold the structure; formatting is Prettier's job.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

// The webview reaches the host's code only through the protocol module, wherever
// it lives (src/shared/protocol.ts today, src/protocol/ once the panel splits it).
const protocolModule = ['**/src/shared/protocol.ts', '**/src/protocol.ts', '**/src/protocol/**'];

export default tseslint.config(
  { ignores: ['dist/', 'out/', 'node_modules/', 'media/dist/', 'test-results/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.json'] })],
    },
    rules: {
      // Promises nobody awaits lose their errors; a promise where a boolean or a
      // void callback is expected is always truthy or never awaited. node:test
      // tracks the promises its own test() and describe() return.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Warden looks for control and invisible characters on purpose (terminal escapes,
      // hidden text), one code point at a time; `this` starts walks up a scope chain.
      'no-control-regex': 'off',
      'no-misleading-character-class': 'off',
      '@typescript-eslint/no-this-alias': 'off',
      // tsc's strict mode already holds the types; `any` stays for variance erasure and
      // deliberately malformed test input.
      '@typescript-eslint/no-explicit-any': 'off',
      // Cycles are found by scripts/check-cycles.mjs, which also counts type-only
      // imports and cycles between folders.
      'import-x/no-self-import': 'error',
      // A closure may read a variable assigned once, later (a server that needs its own port).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/core',
              from: ['./src/server', './src/extension', './src/cli', './src/cli.ts'],
              message: 'src/core is shared by every host: it imports no host code.',
            },
            {
              target: './media',
              from: ['./src/**', './test/**', './scripts/**'],
              except: protocolModule,
              message: 'the webview imports only the protocol module.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/core runs outside VS Code too: pass what it needs in.' }],
          patterns: [{ group: ['vscode/*'], message: 'src/core runs outside VS Code too.' }],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { console: 'readonly', process: 'readonly', URL: 'readonly', setTimeout: 'readonly' },
    },
  },
);
