import { Option, type Command } from 'commander';
import { SETTINGS_FILE, loadServeConfig, type ConfigInput, type ConfigKey } from '../../config.js';
import { DEMO_OWNER, type DemoCredentials } from '../../server/demo-seed.js';
import { startServer, type RunningServer } from '../../server/server.js';
import { clientConfigs } from '../../shared/client-configs.js';

/** `canvas-mcp serve`: the REST backend and the MCP tool server, on SQLite by default. */

const SERVE_OPTIONS: Array<[flags: string, key: ConfigKey, description: string]> = [
  [
    '--config <file>',
    'configFile',
    `settings file (JSON; default ./${SETTINGS_FILE} when it exists): flags and the environment win over it`,
  ],
  ['--host <host>', 'host', 'interface to bind (default 127.0.0.1)'],
  ['--port <port>', 'port', 'port to listen on (default 8787; 0 picks a free one)'],
  ['--data <dir>', 'dataDir', 'data directory of the embedded SQLite store (default ./data)'],
  ['--database-url <url>', 'databaseUrl', 'use PostgreSQL instead of SQLite'],
  ['--backend-url <url>', 'backendUrl', 'run as a gateway in front of a canvas backend at this URL'],
  ['--backend-token <token>', 'backendToken', 'the gateway credential for --backend-url (a --kind gateway token)'],
  [
    '--public-url <url>',
    'publicUrl',
    'the URL clients and browsers use (behind a proxy): sign-in links, cookies, asset URLs in tool results',
  ],
  ['--allowed-origins <list>', 'allowedOrigins', 'comma-separated browser origins allowed to call /mcp'],
  ['--rate-limit <n>', 'rateLimitPerMinute', 'requests per minute per token at /mcp (0 disables; default 600)'],
  ['--body-limit <bytes>', 'bodyLimitBytes', 'largest accepted request body (default 1 MiB)'],
  ['--log-level <level>', 'logLevel', 'fatal, error, warn, info, debug, trace or silent'],
  ['--workers <n>', 'workers', 'node run workers inside this process (default 2; 0 for none)'],
  [
    '--sqlite-synchronous <mode>',
    'sqliteSynchronous',
    'full (default: survives power loss) or normal (faster writes; see docs/operations.md)',
  ],
  ['--run-duration-ms <ms>', 'runDurationMs', 'how long the local provider takes per run (default 3000)'],
  [
    '--run-lease-ms <ms>',
    'runLeaseMs',
    "lease of a running run; a dead worker's run is picked up after it (default 10000)",
  ],
  ['--run-timeout-ms <ms>', 'runTimeoutMs', 'a run still going after this fails with timeout (default 600000)'],
  [
    '--image-provider <name>',
    'imageProvider',
    'local (default), openai (CANVAS_MCP_OPENAI_API_KEY), replicate (CANVAS_MCP_REPLICATE_API_TOKEN) or fal (CANVAS_MCP_FAL_KEY)',
  ],
  [
    '--openai-base-url <url>',
    'openaiBaseUrl',
    'base URL of an OpenAI-compatible images and speech API (default https://api.openai.com/v1)',
  ],
  ['--openai-model <model>', 'openaiModel', 'image model for --image-provider openai (default gpt-image-1)'],
  [
    '--speech-provider <name>',
    'speechProvider',
    "audio nodes' speech: local (default) or openai (an OpenAI-compatible /audio/speech at --openai-base-url)",
  ],
  [
    '--openai-speech-model <model>',
    'openaiSpeechModel',
    'speech model for --speech-provider openai (default gpt-4o-mini-tts)',
  ],
  ['--openai-speech-voice <voice>', 'openaiSpeechVoice', 'the voice when an audio node names none (default alloy)'],
  ['--video-provider <name>', 'videoProvider', 'video nodes: local (default), replicate or fal'],
  ['--storyboard-provider <name>', 'storyboardProvider', 'storyboard sheets: local (default), replicate or fal'],
  ['--replicate-base-url <url>', 'replicateBaseUrl', "Replicate's API (default https://api.replicate.com/v1)"],
  [
    '--replicate-image-model <model>',
    'replicateImageModel',
    'owner/name or owner/name:version (default black-forest-labs/flux-schnell)',
  ],
  [
    '--replicate-video-model <model>',
    'replicateVideoModel',
    'owner/name or owner/name:version (default minimax/video-01)',
  ],
  [
    '--replicate-storyboard-model <model>',
    'replicateStoryboardModel',
    'owner/name or owner/name:version (default black-forest-labs/flux-schnell)',
  ],
  ['--fal-queue-url <url>', 'falQueueUrl', "fal's queue API (default https://queue.fal.run)"],
  ['--fal-image-model <endpoint>', 'falImageModel', 'fal endpoint id (default fal-ai/flux/schnell)'],
  ['--fal-video-model <endpoint>', 'falVideoModel', 'fal endpoint id (default fal-ai/ltx-video)'],
  ['--fal-storyboard-model <endpoint>', 'falStoryboardModel', 'fal endpoint id (default fal-ai/flux/schnell)'],
  ['--provider-poll-ms <ms>', 'providerPollMs', "how often a hosted provider's request is read again (default 1000)"],
  [
    '--run-prices <json>',
    'runPrices',
    'credits per output for the models runs use, e.g. {"fal-ai/flux/schnell":0.4}: drives estimates and budgets',
  ],
  [
    '--webhook-retry-ms <ms>',
    'webhookRetryMs',
    'first retry of a failed webhook delivery, ×4 each time up to an hour (default 5000)',
  ],
  ['--webhook-give-up-ms <ms>', 'webhookGiveUpMs', 'how long a webhook delivery is retried (default 86400000, 24 h)'],
  ['--session-idle-hours <hours>', 'sessionIdleHours', 'a signed-in session unused this long ends (default 12)'],
  ['--session-max-days <days>', 'sessionMaxDays', 'a signed-in session ends this long after sign-in (default 7)'],
  [
    '--feed-heartbeat-ms <ms>',
    'feedHeartbeatMs',
    'a comment line on an idle change feed this often, so proxies keep it open (default 15000)',
  ],
  [
    '--model-provider <name>',
    'modelProvider',
    "the canvas chat's model provider: anthropic, openai or openai-compatible (key in CANVAS_MCP_MODEL_API_KEY)",
  ],
  ['--model <id>', 'model', "the canvas chat's model id (e.g. claude-sonnet-4-5, gpt-4.1, llama3.1)"],
  [
    '--model-base-url <url>',
    'modelBaseUrl',
    "the model API's base URL (required for openai-compatible: Ollama, vLLM, LM Studio, OpenRouter)",
  ],
  [
    '--model-api-key-file <path>',
    'modelApiKeyFile',
    'read the model API key from this file instead of CANVAS_MCP_MODEL_API_KEY',
  ],
  ['--chat-max-steps <n>', 'chatMaxSteps', "tool steps the chat's agent may take in one turn (default 24)"],
  ['--chat-token-budget <n>', 'chatTokenBudget', 'model tokens one chat conversation may use (default 400000)'],
  [
    '--chat-approval-minutes <n>',
    'chatApprovalMinutes',
    'how long the chat waits for a person to approve a paid run (default 10)',
  ],
  [
    '--oidc-issuer <url>',
    'oidcIssuer',
    'sign people in with this OpenID Connect provider too (its issuer URL; secret in CANVAS_MCP_OIDC_CLIENT_SECRET)',
  ],
  ['--oidc-client-id <id>', 'oidcClientId', 'the client id registered at the OpenID Connect provider'],
  ['--oidc-name <name>', 'oidcName', 'what the sign-in button calls the provider (default "single sign-on")'],
  [
    '--asset-store <store>',
    'assetStore',
    'where run outputs are kept: local (default, the data dir), postgres (in the database: many servers share them) or s3',
  ],
  [
    '--asset-url-ttl <seconds>',
    'assetUrlTtlSeconds',
    'how long a signed asset URL in a tool result or run record stays valid (default 3600)',
  ],
  [
    '--s3-bucket <bucket>',
    's3Bucket',
    'the bucket of --asset-store s3 (credentials: CANVAS_MCP_S3_ACCESS_KEY_ID and _SECRET_ACCESS_KEY, or the AWS defaults)',
  ],
  ['--s3-region <region>', 's3Region', "the bucket's region (default us-east-1)"],
  ['--s3-endpoint <url>', 's3Endpoint', 'an S3-compatible endpoint (MinIO, R2, Ceph) instead of AWS'],
  ['--s3-prefix <prefix>', 's3Prefix', 'a key prefix for every object (e.g. canvas-mcp/)'],
  ['--s3-force-path-style', 's3ForcePathStyle', 'address the bucket in the path, as most S3-compatible stores need'],
  [
    '--metrics-token <token>',
    'metricsToken',
    'bearer token required at /metrics (needed to serve /metrics beyond loopback; prefer CANVAS_MCP_METRICS_TOKEN)',
  ],
];

/**
 * What a person needs after the first start, for stderr (stdout carries JSON log lines only). The token appears once:
 * the client configurations below it say TOKEN, so the secret is not repeated across the terminal's scrollback.
 */
export function demoBanner(server: RunningServer, demo: DemoCredentials): string {
  const configs = clientConfigs({ mcpUrl: server.mcpUrl, token: 'TOKEN', agentRunId: demo.agentRunId });
  const shown = configs.filter((config) => config.client === 'Claude Code' || config.client === 'Cursor');
  return [
    '',
    'Demo seeded: workspace and project "demo", canvas "main".',
    `  token (shown once, keep it):  ${demo.token}`,
    `  agent run id (X-Agent-Run-Id): ${demo.agentRunId}`,
    `  open the canvas (sign-in link for the demo owner, one use, 15 minutes):`,
    `    ${server.url}/auth/login?token=${demo.loginSecret}`,
    `    a new link: npm run -s cli -- admin login-link --issuer ${DEMO_OWNER.issuer} --subject ${DEMO_OWNER.subject} --project demo --canvas main`,
    '',
    'Connect a client (replace TOKEN with the token above; the README and the canvas\'s "Connect an agent" panel show more):',
    ...shown.flatMap((config) => [`  ${config.client} (${config.where}):`, config.text.replace(/^/gm, '    ')]),
    '',
  ].join('\n');
}

/** Reads the flags given on the command line (they override the environment) into configuration input. */
export function configFlagsOf(command: Command, options: Array<{ option: Option; key: ConfigKey }>): ConfigInput {
  const values = command.opts<Record<string, unknown>>();
  const flags: ConfigInput = {};
  for (const { option, key } of options) {
    if (command.getOptionValueSource(option.attributeName()) === 'cli') flags[key] = values[option.attributeName()];
  }
  return flags;
}

export function serveOptions(): Array<{ option: Option; key: ConfigKey }> {
  return SERVE_OPTIONS.map(([flags, key, description]) => ({ option: new Option(flags, description), key }));
}

export function registerServeCommand(program: Command): void {
  const serve = program.command('serve').description('Serve the canvas backend and the MCP tool server');
  const options = serveOptions();
  for (const { option } of options) serve.addOption(option);
  serve
    .option('--enable-hidden-tools', 'also list and allow tools beyond the six published ones')
    .option('--no-seed-demo', 'do not seed the demo on an empty store')
    .action(async () => {
      const flags = configFlagsOf(serve, options);
      if (serve.getOptionValueSource('enableHiddenTools') === 'cli') flags.enableHiddenTools = true;
      if (serve.getOptionValueSource('seedDemo') === 'cli')
        flags.seedDemo = serve.opts<{ seedDemo: boolean }>().seedDemo;

      const config = loadServeConfig(flags);
      const server = await startServer(config);
      // Handlers before the first line a supervisor (or a test) waits for: a signal right after it stops cleanly.
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        process.stderr.write(`${signal}: shutting down\n`);
        server.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
      // For people and scripts, on stderr: stdout carries JSON log lines only.
      // One write: whoever sees the "listening on" line (a supervisor, a script) sees the demo's credentials with it.
      const listening = `canvas-mcp ${server.mode} listening on ${server.url}\n  MCP endpoint: ${server.mcpUrl}\n`;
      process.stderr.write(server.demo ? listening + demoBanner(server, server.demo) : listening);
    });
}
