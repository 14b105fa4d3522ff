import type { IncomingMessage } from 'node:http';
import { legacyEra, type EraFrame } from './era.js';
import {
  MODERN_ERA,
  admitModernMessage,
  claimsModernEra,
  missingEnvelope,
  type EraRefusal,
  type MirroredHeaders,
} from './modern-era.js';
import { isModernProtocolVersion, type JsonRpcId } from './protocol.js';

/** Which protocol era serves one message (docs/architecture.md, "Two protocol eras on one endpoint"). */

export type { MirroredHeaders };

function singleHeader(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function mirroredHeaders(req: IncomingMessage): MirroredHeaders {
  return {
    protocolVersion: singleHeader(req, 'mcp-protocol-version')?.trim(),
    method: singleHeader(req, 'mcp-method')?.trim(),
    name: singleHeader(req, 'mcp-name')?.trim(),
  };
}

/** One JSON-RPC message as far as framing needs it: a request (with id) or a notification or response. */
export interface Framed {
  id?: JsonRpcId;
  method?: string;
  params?: unknown;
}

/**
 * The era that serves a message, or a refusal. Body-primary, as 2026-07-28 says a dual-era server selects its
 * behaviour "from how the client opens": a `_meta` protocol-version claim is modern; no claim is legacy, unless the
 * MCP-Protocol-Version header names a modern revision, which then lacks its envelope.
 */
export function eraOf(message: Framed, headers: MirroredHeaders): EraFrame | EraRefusal {
  if (message.method !== undefined && claimsModernEra(message.params)) {
    return (
      admitModernMessage({ id: message.id, method: message.method, params: message.params }, headers) ?? MODERN_ERA
    );
  }
  const header = headers.protocolVersion;
  if (header !== undefined && isModernProtocolVersion(header)) {
    // A notification names no envelope of its own; the header decides (the revision defines none over HTTP).
    if (message.id === undefined || message.method === undefined) return MODERN_ERA;
    return missingEnvelope(message.id, header);
  }
  return legacyEra(header);
}

export function isEraFrame(value: EraFrame | EraRefusal): value is EraFrame {
  return 'hasMethod' in value;
}
