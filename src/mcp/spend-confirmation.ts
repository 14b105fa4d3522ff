import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { RunEstimate, type SubmitCanvasNodeRunArgs } from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import type { BackendClient, ToolCaller } from './backend-client.js';
import { META_KEY } from './modern-era.js';

/**
 * Spend confirmation for external agents (docs/contract.md, "Spend confirmation"): on the 2026-07-28 era, a paid run
 * submitted by an agent (a token or an OAuth connection, not the canvas chat's own agent, which the chat asks) is first
 * answered with an `input_required` result (multi round-trip requests, basic/patterns/mrtr.mdx) carrying a form
 * elicitation: "start this run for N credits?". The client asks its person and retries with the answer and the
 * `requestState` it was given; only a yes submits. Nothing is charged before it. A client that did not declare
 * elicitation, or on the 2025 era: an agent token or connection with the `runs` tool set waits for a person's
 * approval in the canvas (src/backend/canvas/run-approvals.ts); other connections submit within the spending limit
 * their person set.
 *
 * `requestState` is attacker-controlled input (mrtr.mdx, server requirements 4 and 5): it is HMAC-signed and names the
 * principal, the node, the canvas, the idempotency key and the estimate, and expires in ten minutes; state that fails
 * any check is answered with a new question, never trusted.
 */

export const CONFIRM_KEY = 'confirm_spend';
const STATE_TTL_MS = 10 * 60_000;

const State = z.object({
  principal: z.string(),
  project: z.string(),
  canvas: z.string(),
  node: z.string(),
  key: z.string().nullable(),
  estimate: z.number(),
  expires: z.number(),
});
type State = z.infer<typeof State>;

const Answer = z.object({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.unknown()).optional(),
});

const Params = z.looseObject({
  _meta: z.record(z.string(), z.unknown()).optional(),
  inputResponses: z.record(z.string(), z.unknown()).optional(),
  requestState: z.string().optional(),
});

export type SpendGate =
  /** Submit; `ceiling`: the credits the person confirmed, which the run may not exceed. */
  | { kind: 'proceed'; ceiling?: number }
  | { kind: 'ask'; result: { inputRequests: Record<string, unknown>; requestState: string } }
  | { kind: 'declined'; error: CanvasError };

export function createSpendConfirmation(options: {
  client: BackendClient;
  /** The key requestState is signed with, shared by every server of a deployment when it can be (else this one's). */
  stateKey?: () => Promise<string>;
  clock?: () => number;
}) {
  const clock = options.clock ?? Date.now;
  const ownKey = randomBytes(32).toString('base64url');
  let key: Promise<string> | null = null;
  const keyOf = () => (key ??= (options.stateKey?.() ?? Promise.resolve(ownKey)).catch(() => ownKey));

  const sign = async (payload: string) =>
    createHmac('sha256', await keyOf())
      .update(payload)
      .digest('base64url');

  async function seal(state: State): Promise<string> {
    const payload = Buffer.from(JSON.stringify(state)).toString('base64url');
    return `${payload}.${await sign(payload)}`;
  }

  async function open(sealed: string | undefined): Promise<State | null> {
    if (!sealed) return null;
    const [payload, mac] = sealed.split('.');
    if (!payload || !mac) return null;
    const expected = Buffer.from(await sign(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    const parsed = State.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  }

  /**
   * A client that cannot ask its person in the call: an agent token, or an OAuth connection, given the `runs` tool set
   * asks a person's approval in the canvas instead, and retries with the same idempotency key once it is given. A
   * connection without the set keeps its own rule (the spending limit its person set when connecting, for its MCP
   * App's Run button); other callers submit as before.
   */
  async function approvalGate(caller: ToolCaller, args: SubmitCanvasNodeRunArgs): Promise<SpendGate> {
    const sets = caller.connector ? (caller.connector.grant.toolSets ?? []) : caller.principal.toolSets;
    if (!sets.includes('runs')) return { kind: 'proceed' };
    if (!args.idempotency_key)
      return {
        kind: 'declined',
        error: new CanvasError(
          'invalid_arguments',
          "idempotency_key: a paid run waits for a person's approval; send a key so your retry matches it.",
          { field: 'idempotency_key' },
        ),
      };
    const approval = await options.client.askRunApproval(caller, {
      project_id: args.project_id,
      canvas_id: args.canvas_id,
      node_id: args.node_id,
      idempotency_key: args.idempotency_key,
    });
    if (approval.status === 'approved') return { kind: 'proceed', ceiling: approval.estimate };
    return {
      kind: 'declined',
      error:
        approval.status === 'declined'
          ? new CanvasError(
              'forbidden',
              `${approval.decided_by ?? 'A person'} declined this run: nothing was charged.`,
              {
                reason: 'declined',
                approval_id: approval.approval_id,
              },
            )
          : new CanvasError(
              'forbidden',
              `This run costs about ${approval.estimate} credits and waits for a person's approval in the canvas. Call submit_canvas_node_run again with the same idempotency_key once it is approved; nothing is charged before.`,
              { reason: 'approval_required', approval_id: approval.approval_id },
            ),
    };
  }

  return {
    /** Whether this call must be confirmed, and with what; `proceed` submits the run. */
    async gate(
      caller: ToolCaller,
      rawParams: unknown,
      args: SubmitCanvasNodeRunArgs,
      modern: boolean,
    ): Promise<SpendGate> {
      if (caller.principal.purpose === 'assistant') return { kind: 'proceed' };
      const parsed = Params.safeParse(rawParams);
      const params = parsed.success ? parsed.data : {};
      const capabilities = params._meta?.[META_KEY.clientCapabilities] as { elicitation?: unknown } | undefined;
      if (!modern || !capabilities?.elicitation) return approvalGate(caller, args);

      const state = await open(params.requestState);
      const matches =
        state !== null &&
        state.expires > clock() &&
        state.principal === caller.principal.tokenId &&
        state.project === args.project_id &&
        state.canvas === args.canvas_id &&
        state.node === args.node_id &&
        state.key === (args.idempotency_key ?? null);
      const answer = Answer.safeParse(params.inputResponses?.[CONFIRM_KEY]);
      // The estimate now: a yes holds for what the person was shown, and for nothing dearer (the node may have been
      // changed since, to a larger size or a dearer model); a dearer run is asked about again.
      const estimate = await estimateOf(caller, args);
      if (matches && answer.success) {
        if (answer.data.action === 'accept' && answer.data.content?.confirm === true) {
          if (estimate.cost.estimated <= state.estimate) return { kind: 'proceed', ceiling: state.estimate };
          return ask(caller, args, estimate, state.estimate);
        }
        return {
          kind: 'declined',
          error: new CanvasError(
            'forbidden',
            'The person did not confirm the spend: no run was started and nothing was charged.',
            {
              reason: 'spend_not_confirmed',
            },
          ),
        };
      }

      // Ask (again): the estimate now, in the person's words.
      return ask(caller, args, estimate, null);
    },
  };

  async function estimateOf(caller: ToolCaller, args: SubmitCanvasNodeRunArgs): Promise<RunEstimate> {
    return RunEstimate.parse(
      JSON.parse(
        (
          await options.client.estimateRun(caller, {
            project_id: args.project_id,
            canvas_id: args.canvas_id,
            node_id: args.node_id,
          })
        ).json,
      ),
    );
  }

  /** The question, with a new signed state; `confirmedBefore`: what the person said yes to, when the cost rose since. */
  async function ask(
    caller: ToolCaller,
    args: SubmitCanvasNodeRunArgs,
    estimate: RunEstimate,
    confirmedBefore: number | null,
  ): Promise<SpendGate> {
    const cost = estimate.cost.estimated;
    const left =
      estimate.budget.left === null ? 'no budget limit' : `${estimate.budget.left} credits left in the project`;
    const rose =
      confirmedBefore === null
        ? ''
        : ` The cost rose from about ${confirmedBefore} credits, which you confirmed, since the node changed.`;
    return {
      kind: 'ask',
      result: {
        inputRequests: {
          [CONFIRM_KEY]: {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: `Start a ${estimate.operation.replaceAll('_', ' ')} run of ${args.node_id} on ${args.canvas_id}? It costs about ${cost} credits (${left}).${rose}`,
              requestedSchema: {
                type: 'object',
                properties: {
                  confirm: { type: 'boolean', title: `Spend about ${cost} credits`, default: false },
                },
                required: ['confirm'],
              },
            },
          },
        },
        requestState: await seal({
          principal: caller.principal.tokenId,
          project: args.project_id,
          canvas: args.canvas_id,
          node: args.node_id,
          key: args.idempotency_key ?? null,
          estimate: cost,
          expires: clock() + STATE_TTL_MS,
        }),
      },
    };
  }
}

export type SpendConfirmation = ReturnType<typeof createSpendConfirmation>;
