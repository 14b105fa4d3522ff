import { PACKAGE_VERSION } from '../shared/version.js';
import { PRIMARY_PROTOCOL_VERSION } from './protocol.js';

/**
 * A protocol era: how one request is framed around the shared dispatcher and tool registry. Legacy (2025-03-26 …
 * 2025-11-25) opens with `initialize`; modern (2026-07-28) carries version and capabilities in every request's
 * `_meta` and adds `resultType` to every result. The tools, auth and errors never fork by era.
 */
export type EraName = 'legacy' | 'modern';

export interface EraFrame {
  readonly name: EraName;
  /** The protocol version the request is served at (legacy: from the header, else the spec's). */
  readonly protocolVersion: string;
  /** Whether the era defines this method; any other is method-not-found. */
  hasMethod(method: string): boolean;
  /** JSON members written first in every result object, each followed by a comma ('' in the legacy era). */
  readonly resultHead: string;
  /** resultHead with `meta` in the result's `_meta` (beside the era's own members there). */
  resultHeadWith(meta: Record<string, unknown>): string;
  /** Members added to cacheable results (tools/list, server/discover; later resources/*), same form. */
  readonly cacheHead: string;
  /** Members for a result that is the caller's own and changes with every write (a canvas resource): not to be cached. */
  readonly privateHead: string;
  /** The JSON-RPC code for a resource that does not exist: -32002 before 2026-07-28, -32602 since (changelog, minor 6). */
  readonly resourceNotFoundCode: number;
}

export const SERVER_INFO = { name: 'canvas-mcp', title: 'Canvas Tool Interface', version: PACKAGE_VERSION } as const;

/** The methods both eras define: tools, resources, prompts, completions and skills do not fork by era. */
export const BOTH_ERAS_METHODS = [
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  // The Skills extension (SEP-2640), declared in capabilities.extensions.
  'skills/list',
  'skills/get',
] as const;

const LEGACY_METHODS = new Set<string>([
  'initialize',
  'ping',
  ...BOTH_ERAS_METHODS,
  // Tasks (2025-11-25; src/mcp/tool-tasks.ts).
  'tasks/get',
  'tasks/result',
  'tasks/cancel',
]);

function legacyFrame(protocolVersion: string): EraFrame {
  return {
    name: 'legacy',
    protocolVersion,
    hasMethod: (method) => LEGACY_METHODS.has(method),
    resultHead: '',
    resultHeadWith: (meta) => `"_meta":${JSON.stringify(meta)},`,
    cacheHead: '',
    privateHead: '',
    resourceNotFoundCode: -32002,
  };
}

const legacyFrames = new Map<string, EraFrame>();

/** The legacy frame for a request whose MCP-Protocol-Version header (already checked) is `header`. */
export function legacyEra(header: string | undefined): EraFrame {
  const version = header ?? PRIMARY_PROTOCOL_VERSION;
  let frame = legacyFrames.get(version);
  if (!frame) {
    frame = legacyFrame(version);
    legacyFrames.set(version, frame);
  }
  return frame;
}
