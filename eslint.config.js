import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The dependency ladder of src/ (docs/architecture.md, "Where things live"): a folder imports only folders below it,
 * so no folder imports upward and no folder cycle can form. The web canvas takes shapes and pure rules from the lowest
 * rungs only: it talks to the server over HTTP like any client.
 */
const LADDER = [
  'contract',
  'shared',
  'canvas',
  'validation',
  'store',
  'config',
  'assets',
  'provenance',
  'exports',
  'webhooks',
  'runs',
  'ops',
  'render',
  'backend',
  'agent',
  'oauth',
  'mcp',
  'http',
  'server',
  'cli',
];
const WEB_MAY_IMPORT = new Set(['contract', 'shared', 'canvas']);

const above = (folders) => folders.map((folder) => `**/${folder}/**`);
const ladderRules = LADDER.slice(0, -1).map((folder, rank) => ({
  files: [`src/${folder}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: above(LADDER.slice(rank + 1)),
            message: `src/${folder} imports only folders below it on the ladder (docs/architecture.md): move what both need down.`,
          },
        ],
      },
    ],
  },
}));
const webRule = {
  files: ['web/src/**/*.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: above(LADDER.filter((folder) => !WEB_MAY_IMPORT.has(folder))).map(
              (pattern) => `**/src/${pattern.slice(3)}`,
            ),
            message:
              'The web canvas takes shapes from src/contract (and pure rules from src/shared, src/canvas) only: it reaches the server over HTTP.',
          },
        ],
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', '.scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  { files: ['test/web/fixtures/**/*.js'], languageOptions: { globals: globals.browser } },
  ...ladderRules,
  webRule,
);
