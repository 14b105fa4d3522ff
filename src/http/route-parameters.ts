import { z } from 'zod';
import { CanvasId, NodeId, ProjectId, RunId, SNAPSHOT_CONTRACT_VERSION } from '../contract/index.js';
import type { ApiResponse } from './route-declaration.js';

/**
 * What many routes' declarations share, declared once: path prefixes and parameters, request headers, and the shapes
 * and helpers of their answers.
 */

/** A canvas's routes (docs/api.md). */
export const CANVAS = '/api/v2/projects/:project_id/canvases/:canvas_id';
/** A project's team routes. */
export const PROJECT = '/api/v1/projects/:project_id';

export const projectParams = z.object({ project_id: ProjectId });
export const canvasParams = z.object({ project_id: ProjectId, canvas_id: CanvasId });
export const nodeParams = canvasParams.extend({ node_id: NodeId });
/** A board's shot, by its stable id. */
export const shotParams = nodeParams.extend({ shot_id: z.string().min(1).max(200) });
export const runParams = canvasParams.extend({ run_id: RunId });

/** The canvas a route's parsed path names, as the services take it. */
export function canvasRef(params: { project_id: string; canvas_id: string }) {
  return { projectId: params.project_id, canvasId: params.canvas_id };
}

export const GuestHeader = z.object({
  'x-guest-token': z.string().meta({ description: 'The token the guest was given when they joined.' }),
});
export const AgentRunHeader = z.object({
  'x-agent-run-id': z
    .string()
    .optional()
    .meta({ description: 'The canvas chat run that holds the edit authorization (token callers).' }),
});
export const SnapshotVersionHeader = z.object({
  'x-canvas-snapshot-version': z
    .literal(SNAPSHOT_CONTRACT_VERSION)
    .meta({ description: 'The snapshot contract version the reader speaks.' }),
});

export const Html = z.string().meta({ description: 'A page for people.' });
export const FileBytes = z.string().meta({ description: 'The file, with its content type.', format: 'binary' });

export const json = (schema: z.ZodType) => ({ 'application/json': schema });
export const ok = (description: string, schema: z.ZodType): ApiResponse => ({ description, content: json(schema) });
/** A page for people, with its status's description. */
export const page = (description: string): ApiResponse => ({ description, content: { 'text/html': Html } });
