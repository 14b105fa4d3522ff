import type { AssetKind, CanvasNode, RunOperation, RunResource, SkillId } from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import { ID_PREFIX, newId } from '../shared/ids.js';

/**
 * What running a node means (docs/runs.md): the operation derived from the node's type, the input taken from
 * its data at submission, the estimated cost in credits, and the assets it will produce (listed as pending
 * resources from the start).
 */

export interface RunPlan {
  operation: RunOperation;
  skillId: SkillId | null;
  input: Record<string, unknown>;
  costEstimated: number;
  outputs: Array<{ kind: AssetKind }>;
}

const IMAGE_SIZE_CREDITS = { '0.5K': 0.5, '1K': 1, '2K': 2, '4K': 4 } as const;

const SKILL_OUTPUT: Record<SkillId, { kind: AssetKind; credits: number }> = {
  'zone.sketch_from_context': { kind: 'image', credits: 1 },
  'zone.sketch_from_director_combined': { kind: 'image', credits: 1 },
  'zone.frame_from_context': { kind: 'image', credits: 2 },
  'zone.set_selected_background': { kind: 'json', credits: 0.25 },
  'zone.set_director_combined': { kind: 'json', credits: 0.25 },
  'zone.scene_360': { kind: 'image', credits: 4 },
  'agent.review_frame': { kind: 'json', credits: 0.5 },
  'workflow.plan_beat_graph': { kind: 'json', credits: 0.5 },
};

function definedEntries(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

export function planRun(node: CanvasNode): RunPlan {
  switch (node.type) {
    case 'imageNode':
    case 'imageGenNode': {
      const count = node.type === 'imageGenNode' ? (node.data.count ?? 1) : 1;
      return {
        operation: 'image_generation',
        skillId: null,
        input: definedEntries({
          prompt: node.data.prompt,
          size: node.data.size,
          aspectRatio: node.data.requestAspectRatio ?? node.data.aspectRatio,
          count,
          model: node.data.model,
          generationMode: node.data.generationMode,
        }),
        costEstimated: IMAGE_SIZE_CREDITS[node.data.size] * count,
        outputs: Array.from({ length: count }, () => ({ kind: 'image' as const })),
      };
    }
    case 'audioNode': {
      const music = node.data.audioKind === 'music';
      return {
        operation: music ? 'music_generation' : 'speech_generation',
        skillId: null,
        input: definedEntries({
          text: node.data.text ?? '',
          voiceRef: node.data.voiceRef,
          voiceLanguage: node.data.voiceLanguage,
          emotionPrompt: node.data.emotionPrompt,
          musicLengthMs: music ? node.data.musicLengthMs : undefined,
          forceInstrumental: music ? node.data.forceInstrumental : undefined,
        }),
        costEstimated: music ? 2 : 1,
        outputs: [{ kind: 'audio' }],
      };
    }
    case 'scriptNode':
      return {
        operation: 'script_generation',
        skillId: null,
        input: definedEntries({ prompt: node.data.prompt ?? '', model: node.data.model }),
        costEstimated: 0.5,
        outputs: [{ kind: 'json' }],
      };
    case 'skillNode': {
      const skill = SKILL_OUTPUT[node.data.skill_id];
      return {
        operation: 'skill',
        skillId: node.data.skill_id,
        input: { skill_id: node.data.skill_id, parameters: node.data.parameters ?? {} },
        costEstimated: skill.credits,
        outputs: [{ kind: skill.kind }],
      };
    }
    default:
      throw new CanvasError(
        'not_runnable',
        `A ${node.type} has nothing to run: runs exist for imageNode, imageGenNode, audioNode, scriptNode and skillNode.`,
        { node_type: node.type },
      );
  }
}

/** The identities of the assets a run will produce, pending until they are ready. */
export function pendingResources(plan: RunPlan): RunResource[] {
  return plan.outputs.map((output) => ({ asset_id: newId(ID_PREFIX.asset), kind: output.kind, status: 'pending', url: null }));
}
