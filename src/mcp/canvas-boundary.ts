import type { CanvasRef } from '../contract/index.js';
import type { ToolCaller } from './backend-client.js';

/**
 * Which canvases a caller may name at /mcp, beyond what its project rights allow (docs/security.md, "Connectors" and
 * "The canvas chat's agent"): an OAuth connection its grant's canvas, the canvas chat's assistant the conversation's
 * canvas and those its person asked about in the turn (its turn token's canvases). A tool call naming another canvas is
 * answered as a tool error (`forbidden`, naming the canvas) that a model can read and explain, never a transport
 * refusal a client throws.
 */

export function allowedCanvases(caller: ToolCaller): readonly CanvasRef[] | null {
  if (caller.connector) {
    const { grant } = caller.connector;
    return [{ projectId: grant.projectId, canvasId: grant.canvasId }];
  }
  return caller.principal.canvases;
}

const named = (ref: CanvasRef) => `canvas ${ref.canvasId} of project ${ref.projectId}`;

/** Why a call naming this canvas is outside the caller's boundary, or null when it is inside (or names none). */
export function boundaryRefusal(caller: ToolCaller, args: unknown): string | null {
  const allowed = allowedCanvases(caller);
  if (!allowed || !args || typeof args !== 'object') return null;
  const { project_id: projectId, canvas_id: canvasId } = args as { project_id?: unknown; canvas_id?: unknown };
  if (typeof projectId !== 'string' || typeof canvasId !== 'string') return null;
  if (allowed.some((ref) => ref.projectId === projectId && ref.canvasId === canvasId)) return null;
  const asked = named({ projectId, canvasId });
  if (caller.connector) return `This connection is for ${named(allowed[0]!)} only: ${asked} is outside it.`;
  return `In this conversation the assistant works on ${allowed.map(named).join(' and ')}: ${asked} is read only when the person asks about it by name.`;
}
