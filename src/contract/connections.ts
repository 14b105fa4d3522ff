import { z } from 'zod';
import { CanvasId, ProjectId } from './identifiers.js';
import { ToolSetList } from './tool-sets.js';

/** An OAuth client's connection to one canvas (docs/security.md, "Connectors"), as the REST API shows it. */

export const CONNECTION_SCOPES = ['canvas:read', 'canvas:write', 'runs:write'] as const;

export const ConnectionView = z.strictObject({
  grant_id: z.string(),
  client_id: z.string().meta({ description: 'The client: its registered id, or the URL of its metadata document.' }),
  client_name: z.string().nullable(),
  project_id: ProjectId,
  canvas_id: CanvasId,
  person: z
    .strictObject({ issuer: z.string(), subject: z.string() })
    .meta({ description: 'Who approved it; the connection acts for them.' }),
  scopes: z.array(z.enum(CONNECTION_SCOPES)),
  agent_run_id: z.string().nullable().meta({ description: 'The chat run its writes go through (null: read only).' }),
  spend_limit: z
    .number()
    .nullable()
    .meta({ description: 'Credits the runs it starts may cost in all (null: the project budget only).' }),
  spent: z.number(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  tool_sets: z.array(z.string()).meta({ description: 'Tool sets beyond the six an owner enabled for it.' }),
});
export type ConnectionView = z.infer<typeof ConnectionView>;

/** What an owner changes on a connection: its tool sets (docs/contract.md, "Tools beyond the six"). */
export const ConnectionUpdateBody = z.strictObject({ tool_sets: ToolSetList }).meta({ id: 'ConnectionUpdateBody' });
export type ConnectionUpdateBody = z.infer<typeof ConnectionUpdateBody>;

export const ConnectionList = z.looseObject({ connections: z.array(ConnectionView) });
