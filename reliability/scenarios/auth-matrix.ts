import { join } from 'node:path';
import { SNAPSHOT_CONTRACT_VERSION } from '../../src/contract/index.js';
import { rawRequest } from '../../test/support/raw-http.js';
import { admin, agentHeaders, demoCredentials, mcpCall, serve, sleep, stop, type Row } from '../harness.js';
import { scenarioStore } from '../stores.js';

/**
 * Every kind of credential against every entry point, with what each must get. A bypass is a request that succeeded
 * where it must be refused; a request wrongly refused is counted too, so a suite that refuses everything fails.
 */

type Operation = 'mcp-read' | 'mcp-write' | 'rest-read' | 'rest-write' | 'rest-run';
const OPERATIONS: Operation[] = ['mcp-read', 'mcp-write', 'rest-read', 'rest-write', 'rest-run'];

interface Credential {
  name: string;
  headers: Record<string, string | string[]>;
  query?: string;
  /** The operations this credential may perform; every other one must be refused. */
  allowed: Operation[];
}

export async function authMatrix(): Promise<Row> {
  const store = await scenarioStore('sqlite');
  const served = await serve([...store.flags, '--workers', '0'], join(store.dataDir, 'serve.log'));
  try {
    const flags = store.flags;
    const demo = await demoCredentials(served.logFile);
    const token = async (...args: string[]) =>
      (await admin(['token', 'create', '--name', 'matrix', ...args, ...flags])) as { token: string; token_id: string };
    const chatRunFor = async (tokenId: string, ...args: string[]) =>
      (
        (await admin(['chat-run', 'create', 'demo', 'main', '--edit', '--token', tokenId, ...args, ...flags])) as {
          agent_run_id: string;
        }
      ).agent_run_id;
    await admin(['project', 'create', 'other', '--workspace', 'demo', ...flags]);
    await admin(['canvas', 'create', 'other', 'main', ...flags]);
    await admin(['member', 'add', 'demo', '--issuer', 'idp', '--subject', 'erin', '--role', 'editor', ...flags]);
    await admin(['member', 'add', 'demo', '--issuer', 'idp', '--subject', 'vic', '--role', 'viewer', ...flags]);
    const viewer = await token('--project', 'demo', '--role', 'viewer');
    const backend = await token('--project', 'demo', '--kind', 'backend');
    const backendChat = await chatRunFor(backend.token_id);
    const gateway = await token('--project', 'demo', '--kind', 'gateway');
    const otherProject = await token('--project', 'other');
    const otherChat = await chatRunFor(otherProject.token_id).catch(() => 'chat_none');
    const revoked = await token('--project', 'demo');
    const revokedChat = await chatRunFor(revoked.token_id);
    await admin(['token', 'revoke', revoked.token_id, ...flags]);
    const expired = await token('--project', 'demo', '--expires-in', '1');
    const delegatedEditor = await token(
      '--project',
      'demo',
      '--kind',
      'backend',
      '--actor-issuer',
      'idp',
      '--actor-subject',
      'erin',
    );
    const delegatedViewer = await token(
      '--project',
      'demo',
      '--kind',
      'backend',
      '--actor-issuer',
      'idp',
      '--actor-subject',
      'vic',
    );
    const secondAgent = await token('--project', 'demo');
    const noEdit = (
      (await admin(['chat-run', 'create', 'demo', 'main', '--token', secondAgent.token_id, ...flags])) as {
        agent_run_id: string;
      }
    ).agent_run_id;
    const ended = await chatRunFor(secondAgent.token_id);
    await admin(['chat-run', 'end', ended, ...flags]);
    await sleep(1100);

    const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
    const erin = { 'x-service-actor-issuer': 'idp', 'x-service-actor-subject': 'erin' };
    const credentials: Credential[] = [
      {
        name: 'demo agent token with its chat run',
        headers: { ...bearer(demo.token), 'x-agent-run-id': demo.chatRun },
        allowed: ['mcp-read', 'mcp-write'],
      },
      { name: 'demo agent token, no chat run', headers: bearer(demo.token), allowed: ['mcp-read'] },
      {
        name: "agent token presenting another token's chat run",
        headers: { ...bearer(secondAgent.token), 'x-agent-run-id': demo.chatRun },
        allowed: ['mcp-read'],
      },
      {
        name: 'agent token with a chat run without edit',
        headers: { ...bearer(secondAgent.token), 'x-agent-run-id': noEdit },
        allowed: ['mcp-read'],
      },
      {
        name: 'agent token with an ended chat run',
        headers: { ...bearer(secondAgent.token), 'x-agent-run-id': ended },
        allowed: ['mcp-read'],
      },
      {
        name: 'agent token with a node run id as chat run',
        headers: { ...bearer(secondAgent.token), 'x-agent-run-id': 'run_AAAAAAAAAAAAAAAA' },
        allowed: ['mcp-read'],
      },
      {
        name: 'viewer agent token with the demo chat run',
        headers: { ...bearer(viewer.token), 'x-agent-run-id': demo.chatRun },
        allowed: ['mcp-read'],
      },
      {
        name: 'backend token with its chat run',
        headers: { ...bearer(backend.token), 'x-agent-run-id': backendChat },
        allowed: ['rest-read', 'rest-write', 'rest-run'],
      },
      { name: 'backend token without a chat run', headers: bearer(backend.token), allowed: ['rest-read'] },
      {
        name: 'backend token acting for an editor member',
        headers: { ...bearer(delegatedEditor.token), ...erin },
        allowed: ['rest-read', 'rest-write', 'rest-run'],
      },
      { name: 'backend token for an editor, no identity headers', headers: bearer(delegatedEditor.token), allowed: [] },
      {
        name: 'backend token for an editor claiming another person',
        headers: {
          ...bearer(delegatedEditor.token),
          'x-service-actor-issuer': 'idp',
          'x-service-actor-subject': 'vic',
        },
        allowed: [],
      },
      {
        name: 'backend token acting for a viewer member',
        headers: {
          ...bearer(delegatedViewer.token),
          'x-service-actor-issuer': 'idp',
          'x-service-actor-subject': 'vic',
        },
        allowed: ['rest-read'],
      },
      { name: 'gateway token without on-behalf-of', headers: bearer(gateway.token), allowed: [] },
      {
        name: 'gateway token on behalf of a token of another project',
        headers: { ...bearer(gateway.token), 'x-canvas-on-behalf-of': otherProject.token_id },
        allowed: [],
      },
      {
        name: 'token of another project',
        headers: { ...bearer(otherProject.token), 'x-agent-run-id': otherChat },
        allowed: [],
      },
      {
        name: 'revoked token with its chat run',
        headers: { ...bearer(revoked.token), 'x-agent-run-id': revokedChat },
        allowed: [],
      },
      { name: 'expired token', headers: bearer(expired.token), allowed: [] },
      { name: 'no Authorization header', headers: {}, allowed: [] },
      { name: 'an unknown token', headers: bearer('cmcp_unknownunknownunknownunknownunknownunkno'), allowed: [] },
      {
        name: 'Bearer Bearer token',
        headers: { authorization: `Bearer Bearer ${demo.token}`, 'x-agent-run-id': demo.chatRun },
        allowed: [],
      },
      {
        name: 'lowercase scheme (allowed by RFC 9110)',
        headers: { authorization: `bearer ${demo.token}`, 'x-agent-run-id': demo.chatRun },
        allowed: ['mcp-read', 'mcp-write'],
      },
      { name: 'Basic scheme', headers: { authorization: `Basic ${demo.token}` }, allowed: [] },
      {
        name: 'two Authorization headers',
        headers: { authorization: [`Bearer ${demo.token}`, 'Bearer x'], 'x-agent-run-id': demo.chatRun },
        allowed: [],
      },
      {
        name: 'token in the query string',
        headers: { ...bearer(demo.token), 'x-agent-run-id': demo.chatRun },
        query: `?access_token=${demo.token}`,
        allowed: [],
      },
      {
        name: 'token as a cookie',
        headers: { cookie: `token=${demo.token}`, 'x-agent-run-id': demo.chatRun },
        allowed: [],
      },
      {
        name: 'unknown X-Service-Actor-* header',
        headers: { ...bearer(backend.token), 'x-agent-run-id': backendChat, 'x-service-actor-scope': 'all' },
        allowed: [],
      },
    ];

    let bypasses = 0;
    let wronglyRefused = 0;
    let fiveXX = 0;
    let cases = 0;
    const failures: string[] = [];
    const currentRevision = async () =>
      (
        (await mcpCall(served.url, agentHeaders(demo.token), 'get_canvas', { project_id: 'demo', canvas_id: 'main' }))
          .content?.layout as { revision: number }
      ).revision;
    for (const credential of credentials) {
      for (const operation of OPERATIONS) {
        cases += 1;
        const status = await attempt(served.url, credential, operation, currentRevision);
        if (status.code >= 500) fiveXX += 1;
        const allowed = credential.allowed.includes(operation);
        if (status.ok && !allowed) {
          bypasses += 1;
          failures.push(`BYPASS ${credential.name} ${operation}`);
        }
        if (!status.ok && allowed) {
          wronglyRefused += 1;
          failures.push(`refused ${credential.name} ${operation} (${status.code})`);
        }
      }
    }
    return {
      scenario: `auth matrix: ${cases} cases`,
      store: 'sqlite',
      bypasses,
      fiveXX,
      notes: failures.length
        ? failures.slice(0, 3).join('; ')
        : `${credentials.length} credentials x ${OPERATIONS.length} entry points; none wrongly refused`,
      pass: bypasses === 0 && wronglyRefused === 0 && fiveXX === 0,
    };
  } finally {
    await stop(served.child);
    store.destroy();
  }
}

async function attempt(
  url: string,
  credential: Credential,
  operation: Operation,
  currentRevision: () => Promise<number>,
): Promise<{ ok: boolean; code: number }> {
  const query = credential.query ?? '';
  const ids = { project_id: 'demo', canvas_id: 'main' };
  const json = { 'content-type': 'application/json' };
  if (operation.startsWith('mcp')) {
    const headers = { ...agentHeaders('x'), ...credential.headers };
    if (!('authorization' in credential.headers)) delete (headers as Record<string, unknown>).authorization;
    const read = operation === 'mcp-read';
    // A write is sent at the current revision, so only rights can refuse it.
    const current = await currentRevision();
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: read
        ? { name: 'get_canvas', arguments: ids }
        : {
            name: 'create_canvas_node',
            arguments: {
              ...ids,
              base_revision: current,
              node: {
                id: `m${Math.random().toString(36).slice(2)}`,
                type: 'textAnnotationNode',
                position: { x: 0, y: 0 },
                data: { content: 'x' },
              },
            },
          },
    });
    const response = await rawRequest(`${url}/mcp${query}`, { headers, body });
    const result = (response.json as { result?: { isError?: boolean } } | undefined)?.result;
    return { ok: response.status === 200 && result !== undefined && result.isError !== true, code: response.status };
  }
  const base = `${url}/api/v2/projects/demo/canvases/main`;
  const headers = { ...credential.headers, 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION };
  if (operation === 'rest-read') {
    const response = await rawRequest(`${base}/snapshot${query}`, { method: 'GET', headers });
    return { ok: response.status === 200, code: response.status };
  }
  if (operation === 'rest-write') {
    const body = JSON.stringify({
      base_revision: await currentRevision(),
      node: {
        id: `r${Math.random().toString(36).slice(2)}`,
        type: 'textAnnotationNode',
        position: { x: 0, y: 0 },
        data: { content: 'x' },
      },
    });
    const response = await rawRequest(`${base}/nodes${query}`, { headers: { ...headers, ...json }, body });
    return { ok: response.status === 201, code: response.status };
  }
  const response = await rawRequest(`${base}/nodes/frame-1/runs${query}`, {
    headers: { ...headers, 'idempotency-key': Math.random().toString(36).slice(2) },
  });
  return { ok: response.status === 202 || response.status === 200, code: response.status };
}
