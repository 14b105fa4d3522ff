import { z } from 'zod';

/**
 * Tool sets (issue 34, item 2; docs/contract.md, "Tools beyond the six"): named groups of the registry's tools beyond
 * the published six, which an owner enables per token and a client then lists by asking for them (the
 * `X-MCP-Toolsets` header, in the style of GitHub's MCP server). Without either, every caller lists exactly the six
 * (spec, Rules 2 and 4). A set the credential was not given is refused by name.
 */
export const TOOL_SETS = {
  edit: { title: 'Edit in place', tools: ['apply_canvas_changes', 'create_canvas_edge'] },
  runs: {
    title: 'Runs (estimate, submit with an idempotency key)',
    tools: ['estimate_canvas_node_run', 'submit_canvas_node_run'],
  },
  exports: { title: 'Exports (PDF, animatic, shot lists, timelines)', tools: ['export_board', 'get_export'] },
  layout: { title: 'Layout (Tidy)', tools: ['tidy_canvas'] },
} as const;

export const ToolSetName = z.enum(Object.keys(TOOL_SETS) as [keyof typeof TOOL_SETS & string]);
export type ToolSetName = z.infer<typeof ToolSetName>;

/** The request header a client names the tool sets it wants in (comma separated). */
export const TOOL_SETS_HEADER = 'x-mcp-toolsets';

/** A token's tool sets: each at most once. */
export const ToolSetList = z
  .array(ToolSetName)
  .max(Object.keys(TOOL_SETS).length)
  .refine((sets) => new Set(sets).size === sets.length, { error: 'names a tool set twice' });
