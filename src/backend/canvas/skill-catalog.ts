import {
  SKILL_IDS,
  SKILL_PARAMETERS,
  SKILL_SCHEMA_VERSION,
  SkillCatalog,
  inputJsonSchema,
  type SkillId,
} from '../../contract/index.js';

/**
 * The global skill catalog (GET /api/v1/zone/skills, tool list_zone_skills). The parameters schema of each
 * entry is generated from the contract, the same schema skillNode.data.parameters is validated with.
 */
const SKILL_TEXT: Record<SkillId, { title: string; description: string }> = {
  'zone.sketch_from_context': {
    title: 'Sketch from context',
    description: 'Draws a rough storyboard sketch from the beat context connected to the node.',
  },
  'zone.sketch_from_director_combined': {
    title: 'Sketch from director view',
    description: 'Draws a sketch from the combined director view: camera, actors, props and stagings.',
  },
  'zone.frame_from_context': {
    title: 'Frame from context',
    description: 'Renders a finished frame from the beat context, optionally anchored to the scene background.',
  },
  'zone.set_selected_background': {
    title: 'Set selected background',
    description: 'Makes the selected image the background of the zone.',
  },
  'zone.set_director_combined': {
    title: 'Set director view',
    description: 'Stores the current combined director view as the zone reference.',
  },
  'zone.scene_360': {
    title: 'Scene 360',
    description: 'Generates a 360-degree panorama of the scene for the pano viewer.',
  },
  'agent.review_frame': {
    title: 'Review frame',
    description: 'Reviews a frame against its beat and returns structured notes.',
  },
  'workflow.plan_beat_graph': {
    title: 'Plan beat graph',
    description: 'Plans the graph of beats and shots for the current episode.',
  },
};

let catalog: SkillCatalog | undefined;

export function skillCatalog(): SkillCatalog {
  catalog ??= SkillCatalog.parse({
    skills: SKILL_IDS.map((skillId) => ({
      skill_id: skillId,
      skill_schema_version: SKILL_SCHEMA_VERSION,
      ...SKILL_TEXT[skillId],
      input_schema: inputJsonSchema(SKILL_PARAMETERS[skillId]),
    })),
  });
  return catalog;
}
