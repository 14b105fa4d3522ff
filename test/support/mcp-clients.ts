import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/**
 * The official MCP clients, v1 (`@modelcontextprotocol/sdk`) and v2 (`@modelcontextprotocol/client`), over real
 * HTTP, each with a fetch that records what went on the wire (JSON-RPC method and the headers sent).
 */

export interface SentRequest {
  method: string | undefined;
  headers: Record<string, string>;
}

export type ClientFlavour =
  | { sdk: 'v1'; protocolVersion: '2025-06-18' | '2025-11-25' }
  | { sdk: 'v2'; mode: 'legacy' | 'auto' | { pin: '2026-07-28' } };

/** What the tests need of either client. */
export interface AnyClient {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, unknown>>;
  listResources(): Promise<{ resources: Array<{ uri: string; mimeType?: string }> }>;
  readResource(request: { uri: string }): Promise<{ contents: unknown[] }>;
  close(): Promise<void>;
}

export interface ConnectedClient {
  client: AnyClient;
  sent: SentRequest[];
  /** The protocol version the client's later requests carry in MCP-Protocol-Version. */
  protocolVersion(): string | undefined;
}

export function flavourName(flavour: ClientFlavour): string {
  return flavour.sdk === 'v1'
    ? `v1 client, ${flavour.protocolVersion}`
    : `v2 client, mode ${JSON.stringify(flavour.mode)}`;
}

function recordingFetch(sent: SentRequest[], rewriteBody?: (body: string) => string): typeof fetch {
  return async (input, init) => {
    let body = typeof init?.body === 'string' ? init.body : undefined;
    if (body !== undefined && rewriteBody) body = rewriteBody(body);
    let method: string | undefined;
    try {
      method = body === undefined ? undefined : (JSON.parse(body) as { method?: string }).method;
    } catch {
      method = undefined;
    }
    sent.push({ method, headers: Object.fromEntries(new Headers(init?.headers).entries()) });
    return fetch(input, { ...init, ...(body !== undefined ? { body } : {}) });
  };
}

export async function connectFlavour(
  mcpUrl: string,
  headers: Record<string, string>,
  flavour: ClientFlavour,
): Promise<ConnectedClient> {
  const sent: SentRequest[] = [];
  const url = new URL(mcpUrl);
  const lastVersion = () =>
    [...sent].reverse().find((request) => request.headers['mcp-protocol-version'])?.headers['mcp-protocol-version'];
  if (flavour.sdk === 'v1') {
    // The v1 client always offers its latest revision; offering 2025-06-18 instead is what a 2025-06-18 client does.
    const rewrite =
      flavour.protocolVersion === '2025-11-25'
        ? undefined
        : (body: string) =>
            body.replace('"protocolVersion":"2025-11-25"', `"protocolVersion":"${flavour.protocolVersion}"`);
    const transport = new TransportV1(url, { requestInit: { headers }, fetch: recordingFetch(sent, rewrite) });
    const client = new ClientV1({ name: 'canvas-mcp-tests', version: '1.0.0' });
    await client.connect(transport);
    return { client: client as unknown as AnyClient, sent, protocolVersion: lastVersion };
  }
  const transport = new TransportV2(url, { requestInit: { headers }, fetch: recordingFetch(sent) });
  const client = new ClientV2(
    { name: 'canvas-mcp-tests', version: '1.0.0' },
    { versionNegotiation: { mode: flavour.mode } },
  );
  await client.connect(transport);
  return { client: client as unknown as AnyClient, sent, protocolVersion: lastVersion };
}

export const CLIENT_FLAVOURS: readonly ClientFlavour[] = [
  { sdk: 'v1', protocolVersion: '2025-06-18' },
  { sdk: 'v1', protocolVersion: '2025-11-25' },
  { sdk: 'v2', mode: 'legacy' },
  { sdk: 'v2', mode: 'auto' },
  { sdk: 'v2', mode: { pin: '2026-07-28' } },
];
