import { z } from 'zod';
import { CanvasId, NodeId, ProjectId } from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import type { BackendClient, ToolCaller } from './backend-client.js';

/**
 * MCP prompts (docs/contract.md, "Prompts"): starting points a host offers as one click ("storyboard
 * this scene", "review this board", "make a shot list from the script"), each a message that tells the model how to
 * do the job with the six tools. Arguments are completed from what the caller can open (`completion/complete`):
 * projects, canvases, and the boards or script nodes of a canvas. Prompts add nothing to `tools/list`.
 */

interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  /** The node type an argument names, for its completions. */
  nodeArguments?: Record<string, 'storyboardNode' | 'scriptNode'>;
  schema: z.ZodType<Record<string, string>>;
  text(args: Record<string, string>): string;
}

const where = {
  project_id: { name: 'project_id', description: 'The project (completed from those you can open).', required: true },
  canvas_id: { name: 'canvas_id', description: 'The canvas (completed from those of the project).', required: true },
};
const canvasArgs = { project_id: ProjectId, canvas_id: CanvasId };
const readFirst = (args: Record<string, string>) =>
  `Read canvas "${args.canvas_id}" of project "${args.project_id}" with get_canvas first; use its layout.revision as base_revision and the exact node ids it lists.`;

const PROMPTS: PromptDefinition[] = [
  {
    name: 'storyboard_scene',
    title: 'Storyboard this scene',
    description:
      'Plan a scene as a board of numbered shots (size, angle, movement, lens, duration, action, dialogue, cast).',
    arguments: [
      where.project_id,
      where.canvas_id,
      { name: 'scene', description: 'The scene, in words or as its heading in the script.', required: true },
    ],
    schema: z.object({ ...canvasArgs, scene: z.string().min(1).max(4000) }),
    text: (args) =>
      `${readFirst(args)}\nStoryboard this scene as one storyboardNode, placed where it covers no other node: ${args.scene}\n` +
      'Give every frame a stable id, a number (1, 2, 3 in order), shotSize (ECU … EWS), angle, movement, lensMm, durationMs, ' +
      'a caption saying what the frame shows, and the action, dialogue, cast and location it carries. Create it with ' +
      'create_canvas_node, then say in two sentences what the board holds.',
  },
  {
    name: 'review_board',
    title: 'Review this board',
    description: 'Read a board shot by shot and say what breaks continuity, pacing or coverage, without changing it.',
    arguments: [
      where.project_id,
      where.canvas_id,
      { name: 'board_node_id', description: 'The board (completed from the canvas’s boards).', required: true },
    ],
    nodeArguments: { board_node_id: 'storyboardNode' },
    schema: z.object({ ...canvasArgs, board_node_id: NodeId }),
    text: (args) =>
      `${readFirst(args)}\nReview the board ${args.board_node_id} shot by shot: continuity (cast, location, screen direction), ` +
      'pacing (durations against the running time), coverage (sizes and angles) and anything a director would question. ' +
      'Name each shot by its number. Do not change the canvas; answer with a short list of notes.',
  },
  {
    name: 'shot_list_from_script',
    title: 'Make a shot list from the script',
    description: 'Turn the script node’s scenes into a board of numbered shots bound to its lines.',
    arguments: [
      where.project_id,
      where.canvas_id,
      { name: 'script_node_id', description: 'The script node (completed from the canvas’s scripts).', required: true },
    ],
    nodeArguments: { script_node_id: 'scriptNode' },
    schema: z.object({ ...canvasArgs, script_node_id: NodeId }),
    text: (args) =>
      `${readFirst(args)}\nRead the script node ${args.script_node_id} (its scriptResult holds the scenes, cast and lines; a long script's lines are in the asset its fullScreenplayUrl names). ` +
      'Make a shot list from it: one storyboardNode with, for each scene in order, the shots that cover it, each with ' +
      'scene, shotSize, caption, action, dialogue, cast and location taken from the scene. Create it with ' +
      'create_canvas_node where it covers no other node, then say how many shots each scene got.',
  },
];

const byName = new Map(PROMPTS.map((prompt) => [prompt.name, prompt]));

export const PromptGetParams = z.object({
  name: z.string(),
  arguments: z.record(z.string(), z.string()).optional(),
});

export const CompleteParams = z.object({
  ref: z.object({ type: z.literal('ref/prompt'), name: z.string() }),
  argument: z.object({ name: z.string(), value: z.string() }),
  context: z.object({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
});

const MAX_COMPLETIONS = 100;

export function createPrompts(client: BackendClient) {
  function definition(name: string): PromptDefinition {
    const found = byName.get(name);
    if (!found) throw new CanvasError('invalid_arguments', `There is no prompt ${JSON.stringify(name)}.`, { name });
    return found;
  }

  /** What the caller can open; a connection (OAuth) is bound to one canvas, and is offered that canvas alone. */
  async function reachable(
    caller: ToolCaller,
  ): Promise<Array<{ project_id: string; canvases: Array<{ canvas_id: string }> }>> {
    if (caller.connector)
      return [
        { project_id: caller.connector.grant.projectId, canvases: [{ canvas_id: caller.connector.grant.canvasId }] },
      ];
    return client.reachableProjects(caller);
  }

  return {
    list: () => ({
      prompts: PROMPTS.map(({ name, title, description, arguments: args }) => ({
        name,
        title,
        description,
        arguments: args,
      })),
    }),

    /** The prompt's messages; refused when an argument is missing or the caller may not read the project. */
    async get(caller: ToolCaller, params: z.infer<typeof PromptGetParams>) {
      const prompt = definition(params.name);
      const parsed = prompt.schema.safeParse(params.arguments ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new CanvasError(
          'invalid_arguments',
          `${prompt.name}: ${issue.path.join('.') || 'arguments'} ${issue.message}`,
          {
            field: issue.path.join('.'),
          },
        );
      }
      // Checked with the backend in both modes (a gateway's own check is only a first look): the caller must be
      // able to open the canvas the message names.
      const { project_id: projectId, canvas_id: canvasId } = parsed.data as { project_id: string; canvas_id: string };
      const project = (await reachable(caller)).find((each) => each.project_id === projectId);
      if (!project) throw new CanvasError('forbidden', `This token may not open project ${projectId}.`);
      if (!project.canvases.some((canvas) => canvas.canvas_id === canvasId))
        throw new CanvasError('not_found', `There is no canvas ${canvasId} in project ${projectId}.`, {
          canvas_id: canvasId,
        });
      return {
        description: prompt.description,
        messages: [{ role: 'user', content: { type: 'text', text: prompt.text(parsed.data) } }],
      };
    },

    /** Values for one argument, starting with what was typed: projects, canvases, or nodes of the named type. */
    async complete(caller: ToolCaller, params: z.infer<typeof CompleteParams>) {
      const prompt = definition(params.ref.name);
      const typed = params.argument.value.toLowerCase();
      const given = params.context?.arguments ?? {};
      let values: string[] = [];
      if (params.argument.name === 'project_id') {
        values = (await reachable(caller)).map((project) => project.project_id);
      } else if (params.argument.name === 'canvas_id' && given.project_id) {
        const project = (await reachable(caller)).find((each) => each.project_id === given.project_id);
        values = project?.canvases.map((canvas) => canvas.canvas_id) ?? [];
      } else if (prompt.nodeArguments?.[params.argument.name] && given.project_id && given.canvas_id) {
        const type = prompt.nodeArguments[params.argument.name];
        const read = await client.getCanvas(caller, { project_id: given.project_id, canvas_id: given.canvas_id });
        const nodes = (JSON.parse(read.json) as { layout: { nodes: Array<{ id: string; type: string }> } }).layout
          .nodes;
        values = nodes.filter((node) => node.type === type).map((node) => node.id);
      }
      const matching = values.filter((value) => value.toLowerCase().startsWith(typed));
      return {
        completion: {
          values: matching.slice(0, MAX_COMPLETIONS),
          total: matching.length,
          hasMore: matching.length > MAX_COMPLETIONS,
        },
      };
    },
  };
}

export type Prompts = ReturnType<typeof createPrompts>;
