import { useCallback, useEffect, useState } from 'react';
import { TOOL_SETS, type ChatRunView, type ConnectionView, type ToolSetName } from '../../../../src/contract/index.js';
import { samePerson } from '../../../../src/contract/person.js';
import { clientConfigs } from '../../../../src/shared/client-configs.js';
import { useCanvas, useCanvasState, useEditable } from '../../ui/canvas-context.js';
import { api } from '../../model/api.js';
import { undoAgentChanges } from '../../model/agent-undo.js';
import { credits } from '../../model/values.js';

/**
 * Connects an agent to this canvas from the browser alone: an owner gets a new agent token (shown once) and a chat
 * run holding the edit authorization, bound to that token; an editor gets a chat run for a token acting for them.
 * The panel shows the configurations to paste into Claude Code, Cursor, VS Code or Claude Desktop, and ends a
 * connection with one click (its chat run ends; a token issued here is revoked with it).
 */

interface Connection {
  chatRun: ChatRunView;
  token: string | null;
}

function CopyBlock({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="copy-block">
      <pre>{text}</pre>
      <button
        type="button"
        className="button-small"
        onClick={() =>
          void navigator.clipboard?.writeText(text).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

export function ConnectAgent() {
  const { controller } = useCanvas();
  const editable = useEditable();
  const address = useCanvasState((state) => state.address);
  const role = useCanvasState((state) => state.role);
  const person = useCanvasState((state) => state.person);
  const [active, setActive] = useState<ChatRunView[]>([]);
  const [connection, setConnection] = useState<Connection | null>(null);
  const [issuedTokens, setIssuedTokens] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [toolSets, setToolSets] = useState<ToolSetName[]>([]);
  const [error, setError] = useState<string | null>(null);
  const canConnect = role === 'editor' || role === 'owner';

  const refresh = useCallback(async () => {
    if (!canConnect) return;
    try {
      setActive((await api.chatRuns(address)).chat_runs);
    } catch (failure) {
      setError((failure as Error).message);
    }
  }, [address, canConnect]);
  useEffect(() => void refresh(), [refresh]);

  const connect = async () => {
    setBusy(true);
    setError(null);
    try {
      let token: string | null = null;
      let tokenId: string | undefined;
      if (role === 'owner') {
        const issued = await api.issueToken({
          name: `Agent of ${person?.subject ?? 'a person'} on ${address.canvasId}`,
          project_id: address.projectId,
          tool_sets: toolSets,
        });
        token = issued.token;
        tokenId = issued.token_id;
      }
      const chatRun = await api.openChatRun(address, { edit: true, ...(tokenId ? { token_id: tokenId } : {}) });
      if (tokenId) setIssuedTokens((current) => ({ ...current, [chatRun.agent_run_id]: tokenId }));
      setConnection({ chatRun, token });
      await refresh();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const end = async (agentRunId: string) => {
    try {
      await api.endChatRun(address, agentRunId);
      const tokenId = issuedTokens[agentRunId];
      if (tokenId) await api.revokeToken(tokenId);
      if (connection?.chatRun.agent_run_id === agentRunId) setConnection(null);
      controller.notify('info', 'The agent connection was ended: its chat run can no longer write.');
      await refresh();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  const mcpUrl = `${window.location.origin}/mcp/`;
  const apps = <ConnectedApps mcpUrl={mcpUrl} />;
  if (!canConnect) {
    return (
      <div className="connect">
        {apps}
        <p className="muted">Connecting an agent with a token needs an editor or owner of this project.</p>
      </div>
    );
  }
  return (
    <div className="connect">
      {apps}
      <p>
        An agent reads this canvas and writes to it through the MCP endpoint <code>{mcpUrl}</code>. Its writes appear
        here live, with its name.
      </p>
      {role === 'owner' ? (
        <fieldset className="checks">
          <legend>Tools beyond the six (its token lists them; an agent may narrow them with X-MCP-Toolsets)</legend>
          {Object.entries(TOOL_SETS).map(([name, set]) => (
            <label key={name}>
              <input
                type="checkbox"
                checked={toolSets.includes(name as ToolSetName)}
                onChange={(event) =>
                  setToolSets((current) =>
                    event.target.checked ? [...current, name as ToolSetName] : current.filter((each) => each !== name),
                  )
                }
              />
              {set.title}
            </label>
          ))}
        </fieldset>
      ) : null}
      <button type="button" className="button-primary" disabled={busy} onClick={() => void connect()}>
        {busy ? 'Connecting…' : 'Connect an agent'}
      </button>
      {error ? <p className="error-line">{error}</p> : null}
      {connection ? (
        <section className="connection" data-agent-run-id={connection.chatRun.agent_run_id}>
          <h3>Paste into your client</h3>
          {connection.token ? (
            <p className="warning">The token is shown only now. Copy it into your client's configuration.</p>
          ) : (
            <p className="warning">
              Replace TOKEN with a token acting for you (an owner issues one), or ask an owner to connect the agent.
            </p>
          )}
          {clientConfigs({
            mcpUrl,
            token: connection.token ?? 'TOKEN',
            agentRunId: connection.chatRun.agent_run_id,
          }).map((config) => (
            <details key={config.client} className="client-config" open={config.client === 'Claude Code'}>
              <summary>
                {config.client} <span className="muted">{config.where}</span>
              </summary>
              <CopyBlock text={config.text} />
            </details>
          ))}
        </section>
      ) : null}
      <h3>Active agent connections</h3>
      {active.length === 0 ? <p className="muted">None.</p> : null}
      <ul className="chat-runs">
        {active.map((chatRun) => (
          <li key={chatRun.agent_run_id}>
            <code>{chatRun.agent_run_id}</code>
            <span className="muted">
              {chatRun.can_edit ? ' can edit' : ' read only'}
              {chatRun.opened_by ? ` · opened by ${chatRun.opened_by.subject}` : ''}
            </span>
            <button type="button" className="button-small" onClick={() => void end(chatRun.agent_run_id)}>
              End
            </button>
            {editable ? (
              <button
                type="button"
                className="button-small"
                title="Everything this agent changed goes back, as one revision; a card someone changed since is kept"
                onClick={() => void undoAgentChanges(controller, chatRun.agent_run_id, 'the agent')}
              >
                Undo its changes
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

const SCOPE_TEXT: Record<string, string> = {
  'canvas:read': 'reads',
  'canvas:write': 'edits',
  'runs:write': 'starts runs',
};

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

/**
 * Apps connected with OAuth (claude.ai, ChatGPT, Claude Desktop, any MCP client that signs in): the person adds the
 * server's MCP URL as a connector, signs in and picks this canvas; the connection shows here, and ending it stops the
 * app at once (docs/security.md, "Connectors").
 */
function ConnectedApps({ mcpUrl }: { mcpUrl: string }) {
  const { controller } = useCanvas();
  const address = useCanvasState((state) => state.address);
  const role = useCanvasState((state) => state.role);
  const person = useCanvasState((state) => state.person);
  const [connections, setConnections] = useState<ConnectionView[]>([]);
  const [error, setError] = useState<string | null>(null);
  const refresh = useCallback(async () => {
    try {
      setConnections((await api.connections(address)).connections);
    } catch (failure) {
      setError((failure as Error).message);
    }
  }, [address]);
  useEffect(() => void refresh(), [refresh]);

  const setToolSets = async (connection: ConnectionView, sets: string[]) => {
    try {
      const changed = await api.updateConnection(connection.grant_id, { tool_sets: sets });
      setConnections((current) => current.map((each) => (each.grant_id === changed.grant_id ? changed : each)));
    } catch (failure) {
      controller.notify('error', `The connection's tools were not changed: ${(failure as Error).message}`);
    }
  };

  const end = async (connection: ConnectionView) => {
    try {
      await api.endConnection(connection.grant_id);
      controller.notify('info', `${connection.client_name ?? 'The app'} was disconnected: its next call is refused.`);
      await refresh();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  return (
    <section className="connected-apps" aria-labelledby="connected-apps-title">
      <h3 id="connected-apps-title">Connected apps</h3>
      <p>
        In claude.ai, ChatGPT, Claude Desktop or any MCP client that signs in, add <code>{mcpUrl}</code> as a connector.
        You sign in here, choose this canvas and what the app may do; no token to copy.
      </p>
      {error ? <p className="error-line">{error}</p> : null}
      {connections.length === 0 ? <p className="muted">No app is connected to this canvas.</p> : null}
      <ul className="connections">
        {connections.map((connection) => {
          const mine = person !== null && samePerson(connection.person, person);
          return (
            <li key={connection.grant_id} data-grant-id={connection.grant_id}>
              <strong>{connection.client_name ?? connection.client_id}</strong>
              <span className="muted">
                {' '}
                for {connection.person.subject} ·{' '}
                {connection.scopes.map((scope) => SCOPE_TEXT[scope] ?? scope).join(', ')} · last used{' '}
                {when(connection.last_used_at)}
                {connection.spend_limit !== null && connection.scopes.includes('runs:write')
                  ? ` · spent ${connection.spent} of ${credits(connection.spend_limit)}`
                  : ''}
              </span>
              {mine || role === 'owner' ? (
                <button
                  type="button"
                  className="button-small"
                  onClick={() => void end(connection)}
                  aria-label={`End ${connection.client_name ?? 'the app'}'s connection`}
                >
                  End
                </button>
              ) : null}
              {connection.agent_run_id && role !== 'viewer' ? (
                <button
                  type="button"
                  className="button-small"
                  onClick={() =>
                    void undoAgentChanges(controller, connection.agent_run_id!, connection.client_name ?? 'the app')
                  }
                >
                  Undo its changes
                </button>
              ) : null}
              {role === 'owner' ? (
                <span
                  className="checks"
                  role="group"
                  aria-label={`Tools beyond the six for ${connection.client_name ?? 'the app'}`}
                >
                  {Object.entries(TOOL_SETS).map(([name, set]) => (
                    <label key={name}>
                      <input
                        type="checkbox"
                        checked={connection.tool_sets.includes(name)}
                        onChange={(event) =>
                          void setToolSets(
                            connection,
                            event.target.checked
                              ? [...connection.tool_sets, name]
                              : connection.tool_sets.filter((each) => each !== name),
                          )
                        }
                      />
                      {set.title}
                    </label>
                  ))}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
