/**
 * Paste-ready MCP client configurations for one agent connection (the README's snippets, the first-start banner and
 * the web canvas's "Connect an agent" panel all come from here). Pure: no Node or browser API.
 */

export interface AgentConnection {
  mcpUrl: string;
  token: string;
  agentRunId: string;
}

export interface ClientConfig {
  client: 'Claude Code' | 'Cursor' | 'VS Code' | 'Claude Desktop';
  /** Where it goes. */
  where: string;
  text: string;
}

export function clientConfigs({ mcpUrl, token, agentRunId }: AgentConnection): ClientConfig[] {
  const headers = { Authorization: `Bearer ${token}`, 'X-Agent-Run-Id': agentRunId };
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  return [
    {
      client: 'Claude Code',
      where: 'run in a terminal',
      text: `claude mcp add --transport http canvas-mcp ${mcpUrl} \\\n  --header "Authorization: Bearer ${token}" --header "X-Agent-Run-Id: ${agentRunId}"`,
    },
    {
      client: 'Cursor',
      where: '~/.cursor/mcp.json',
      text: json({ mcpServers: { 'canvas-mcp': { url: mcpUrl, headers } } }),
    },
    {
      client: 'VS Code',
      where: '.vscode/mcp.json',
      text: json({ servers: { 'canvas-mcp': { type: 'http', url: mcpUrl, headers } } }),
    },
    {
      client: 'Claude Desktop',
      where: 'claude_desktop_config.json (through the mcp-remote bridge)',
      text: json({
        mcpServers: {
          'canvas-mcp': {
            command: 'npx',
            args: [
              '-y',
              'mcp-remote',
              mcpUrl,
              '--header',
              'Authorization:${CANVAS_AUTH}',
              '--header',
              'X-Agent-Run-Id:${CANVAS_CHAT_RUN}',
            ],
            env: { CANVAS_AUTH: `Bearer ${token}`, CANVAS_CHAT_RUN: agentRunId },
          },
        },
      }),
    },
  ];
}
