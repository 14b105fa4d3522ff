import { loadServeConfig, type ConfigInput } from '../../config/index.js';
import { DEMO_OWNER, type DemoCredentials } from '../../server/demo-seed.js';
import type { RunningServer } from '../../server/server.js';
import { clientConfigs } from '../../shared/client-configs.js';

/** `canvas-mcp serve`: the REST backend and the MCP tool server, on SQLite by default. */

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

export async function serve(flags: ConfigInput): Promise<void> {
  const config = loadServeConfig(flags);
  // Loaded once the settings are valid: a mistyped flag is answered without loading the whole server.
  const { startServer } = await import('../../server/server.js');
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
}
