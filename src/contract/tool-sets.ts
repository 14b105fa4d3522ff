import { z } from 'zod';

/**
 * Tool sets (docs/contract.md, "Tools beyond the six"): named groups of the registry's tools beyond
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
  review: {
    title: 'Review (reply to and resolve comment threads; never approve)',
    tools: ['reply_to_comment', 'resolve_comment_thread'],
  },
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

/**
 * A paid run an external agent asked to start, waiting for a person's yes in the canvas (docs/contract.md, "Spend
 * confirmation"): what a client that cannot ask its person in the call gets instead of a spend confirmation.
 */
export const RunApprovalView = z
  .strictObject({
    approval_id: z.string(),
    node_id: z.string(),
    agent: z.string().meta({ description: 'The agent that asked, by its token name.' }),
    estimate: z.number().min(0).meta({ description: 'What the run would cost, in credits.' }),
    status: z.enum(['pending', 'approved', 'declined']),
    requested_at: z.string(),
    decided_by: z.string().nullable(),
    decided_at: z.string().nullable(),
  })
  .meta({ id: 'RunApprovalView' });
export type RunApprovalView = z.infer<typeof RunApprovalView>;

export const RunApprovalList = z.strictObject({ approvals: z.array(RunApprovalView) }).meta({ id: 'RunApprovalList' });
export type RunApprovalList = z.infer<typeof RunApprovalList>;

export const RunApprovalRequestBody = z
  .strictObject({ node_id: z.string().min(1).max(200), idempotency_key: z.string().min(1).max(200) })
  .meta({ id: 'RunApprovalRequestBody' });
export type RunApprovalRequestBody = z.infer<typeof RunApprovalRequestBody>;

export const RunApprovalDecisionBody = z
  .strictObject({ decision: z.enum(['approve', 'decline']) })
  .meta({ id: 'RunApprovalDecisionBody' });
export type RunApprovalDecisionBody = z.infer<typeof RunApprovalDecisionBody>;
