import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import pkg from './package.json' with { type: 'json' };

/** The package's public subpaths (package.json `exports`) as one regex alternation; `*` matches one path segment. */
const publicSubpaths = Object.keys(pkg.exports)
  .filter((key) => key !== '.')
  .map((key) =>
    key
      .slice(2)
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace('*', '[^/]+'),
  )
  .join('|');

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'packages/*/dist/**',
      'node_modules/**',
      '.data/**',
      'storybook-static/**',
      'test-results/**',
      'custom-elements.json',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'react-router', message: 'Components never import a router: navigate through usePlatform().navigate (ARCHITECTURE).' },
          ],
          patterns: [{ group: ['**/reference-app/**'], message: 'src/ never imports from reference-app/.' }],
        },
      ],
    },
  },
  {
    // The client layer is what the typed SDK ships: no React, nothing from the UI layers
    // (docs/architecture.md, "The client layer").
    files: ['src/api/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'react', message: 'src/api has no React: the hooks over it live in src/config.' }],
          // The strings table is plain data (statusMessages reads its type).
          patterns: [
            {
              group: ['react-*', 'react/*', '../*', '!../config', '../config/*', '!../config/strings'],
              message: 'src/api imports only itself, its HTTP libraries and the strings table.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests, stories and scripts reach into src/ on purpose.
    files: ['test/**', 'stories/**', 'scripts/**', '*.ts', '*.js', '*.mjs'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The reference app (website, platform server, build config) owns routing, and uses the
    // package as a consumer would: only the entries package.json `exports` lists (docs/api-surface.md),
    // never a source file and never a subpath that is no entry.
    files: ['reference-app/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+src/',
              message: 'Import a public entry of @limelight/widgets (package.json exports), not its files.',
            },
            {
              regex: `^@limelight/widgets/(?!(${publicSubpaths})$)`,
              message: 'Not an entry of @limelight/widgets: import one that package.json exports lists (docs/api-surface.md).',
            },
          ],
        },
      ],
    },
  },
  {
    // SQL only in queries.ts files, a queue's sql/ (one file per operation), db/ and seed/
    // (docs/architecture.md, "Server layers"): no Kysely value import (sql, expression builders)
    // and no query builder call elsewhere.
    files: ['reference-app/server/**/*.ts'],
    ignores: [
      'reference-app/server/**/queries.ts',
      'reference-app/server/*/sql/*.ts',
      'reference-app/server/db/**',
      'reference-app/server/seed/**',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='kysely'][importKind!='type']",
          message: 'SQL lives in the feature’s queries.ts (or db/, seed/); import types only here.',
        },
        {
          selector:
            'CallExpression > MemberExpression.callee > Identifier.property[name=/^(selectFrom|insertInto|updateTable|deleteFrom|mergeInto|selectNoFrom)$/]',
          message: 'SQL lives in the feature’s queries.ts (or db/, seed/): call a query function from there.',
        },
      ],
    },
  },
  // Formatting is Prettier's job (checked by `npm run lint`); turn off ESLint rules that would fight it.
  prettier,
);
