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
  'storyboard',
  'validation',
  'store',
  'config',
  'assets',
  'provenance',
  'jobs',
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
/** What no file of web/src imports: the server's folders above the pure ones. */
const serverPattern = {
  group: above(LADDER.filter((folder) => !WEB_MAY_IMPORT.has(folder))).map((pattern) => `**/src/${pattern.slice(3)}`),
  message:
    'The web canvas takes shapes from src/contract (and pure rules from src/shared, src/canvas) only: it reaches the server over HTTP.',
};
const webRule = {
  files: ['web/src/**/*.{ts,tsx}'],
  rules: { 'no-restricted-imports': ['error', { patterns: [serverPattern] }] },
};

/**
 * The ladder of web/src (docs/architecture.md, "Where things live"), rung by rung from the bottom: the model (state,
 * rules, the server's API: plain TypeScript), the UI pieces every screen shares, the cards, what draws them (the
 * canvas, the frame editor, the board page's views), the panels, and the two pages that compose them (the web app and
 * the MCP App). A folder imports only rungs below its own, never a folder beside it.
 */
const WEB_LADDER = [['model'], ['ui'], ['cards'], ['canvas', 'draw', 'board'], ['panels'], ['app', 'mcp-app']];

// A web folder as an import names it: relative, up to web/src and down into the folder (never src/'s own canvas/).
const webFolders = (folders) => `^(\\.\\./)+(${folders.join('|')})/`;
const webLadderRules = WEB_LADDER.flatMap((rung, rank) =>
  rung.map((folder) => ({
    files: [`web/src/${folder}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            serverPattern,
            {
              regex: webFolders(
                WEB_LADDER.slice(rank)
                  .flat()
                  .filter((other) => other !== folder),
              ),
              message: `web/src/${folder} imports only folders below it on the web ladder (docs/architecture.md): move what both need down.`,
            },
          ],
        },
      ],
    },
  })),
);

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
  ...webLadderRules,
);
