// Lint: typescript-eslint's recommended rules with type information, plus the promise and
// type-import rules that matter most in a Temporal codebase. Formatting is Prettier's job.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactX from 'eslint-plugin-react-x';

const DOMAINS = [
  'directory',
  'read-model',
  'definitions',
  'attachments',
  'instances',
  'tasks',
  'rule-chains',
  'notifications',
];
/** `../x/*` and `../../x/*`: how a file one or two folders down names folder x of src/. */
const folders = (...names) => names.flatMap((n) => [`../${n}/*`, `../../${n}/*`, `../../../${n}/*`]);
/** No file of src/ imports activities/: the adapters call src/, and ./worker.ts hands them to the worker. */
const ADAPTERS = {
  group: folders('activities'),
  message: 'src/ imports no activity adapter (./worker.ts hands them in)',
};
const restrict = (files, names, message, ignores = []) => ({
  files,
  ignores,
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      { patterns: [...(names.length ? [{ group: folders(...names), message }] : []), ADAPTERS] },
    ],
  },
});
function layerRules() {
  const foundation = [
    'src/*.ts',
    'src/db/**/*.ts',
    'src/infra/**/*.ts',
    'src/observability/**/*.ts',
    'src/runtime/**/*.ts',
  ];
  return [
    restrict(foundation, [...DOMAINS, 'http', 'temporal', 'main'], 'the foundation imports no layer above it'),
    restrict(['src/temporal/**/*.ts'], [...DOMAINS, 'http', 'main'], 'temporal/ imports only the foundation'),
    restrict(
      ['src/http/**/*.ts'],
      [...DOMAINS, 'main'],
      'the HTTP edge imports no domain (src/main/app.ts mounts them)',
    ),
    restrict(['src/main/**/*.ts'], [], ''),
    ...DOMAINS.map((d, i) =>
      restrict([`src/${d}/**/*.ts`], [...DOMAINS.slice(i + 1), 'main'], `${d}/ imports only the layers below it`),
    ),
    {
      files: ['workflows/**/*.ts'],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: [...folders('src'), ...folders('src').map((f) => `!${f.replace('*', 'errors.js')}`)],
                message:
                  'workflow code imports only dsl/, chains/, the error catalogue (src/errors.ts) and activity types',
              },
              {
                group: folders('activities'),
                allowTypeImports: true,
                message: 'workflow code imports only activity types',
              },
            ],
          },
        ],
      },
    },
  ];
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      '.data/',
      '.tools/',
      '.fuzz/',
      'coverage/',
      'scratch/',
      'ui/dist/',
      'ui/src/api/schema.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // `any` stays out of the code that runs instances (workflows, activities); the HTTP layer, the
      // console and the tests handle untyped JSON at their edges, where zod or assertions check it.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  { files: ['workflows/**/*.ts', 'activities/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'error' } },
  // dsl/ is the one DSL package that the server, the workflows and the console import: pure code,
  // nothing from Node, the ORM, Hono or the rest of the repository.
  {
    files: ['dsl/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', 'path', 'crypto', 'os'], message: 'dsl/ is pure: no Node modules' },
            { group: ['@mikro-orm/*', 'pg', 'hono', '@hono/*', 'pino', '@temporalio/*'], message: 'dsl/ is pure' },
            { group: ['../*'], message: 'dsl/ imports only its own files and its packages' },
          ],
        },
      ],
    },
  },
  // chains/ is the rule-chain package beside dsl/, imported by the server, the chain-run workflow and
  // the console: pure in the same way.
  {
    files: ['chains/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', 'path', 'crypto', 'os'], message: 'chains/ is pure: no Node modules' },
            { group: ['@mikro-orm/*', 'pg', 'hono', '@hono/*', 'pino', '@temporalio/*'], message: 'chains/ is pure' },
            { group: ['../*'], message: 'chains/ imports only its own files and its packages' },
          ],
        },
      ],
    },
  },
  // The server's layers (docs/architecture.md): each folder imports only the layers below it.
  // Bottom to top: the pure packages (dsl/, chains/, workflows/, src/errors.ts), the foundation (src/*.ts,
  // db/, infra/, observability/, runtime/), temporal/, the HTTP edge (src/http/), then
  // the domains directory < read-model < definitions < instances < tasks < rule-chains < notifications, and on
  // top src/main/ (app.ts mounts the routers) and activities/ (the adapters), which may import any of them.
  ...layerRules(),
  // The console's lists carry keys: an unkeyed row in a live-updated list hands its element (and the
  // click aimed at it) to another item when the list reloads — a click on one inbox row once opened
  // another instance's task.
  {
    files: ['ui/**/*.tsx'],
    plugins: { 'react-x': reactX },
    settings: { 'react-x': { importSource: 'preact' } },
    rules: { 'react-x/no-missing-key': 'error' },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
