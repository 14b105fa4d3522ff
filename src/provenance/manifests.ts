import { PACKAGE } from '../shared/package-facts.js';

/**
 * What canvas-mcp's content credentials say (docs/provenance.md): the C2PA manifest definitions for a run's output
 * and for an export. Pure functions of facts the engines already hold; nothing here reads a store or a file.
 */

/**
 * IPTC digital source types (https://cv.iptc.org/newscodes/digitalsourcetype/), as C2PA's `c2pa.created` action
 * requires one:
 * - trainedAlgorithmicMedia: "Digital media created algorithmically using a model derived from sampled content"
 *   (what a generation run makes);
 * - compositeWithTrainedAlgorithmicMedia: "The compositing of trained algorithmic media with some other media"
 *   (an export laying generated pictures out with people's words, a composition of generated clips);
 * - composite: "Mix or composite of several elements, any of which may or may not be generative AI" (the same made
 *   only of uploads: nothing generated is in it).
 */
export const DIGITAL_SOURCE_TYPE = {
  trainedAlgorithmicMedia: 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia',
  compositeWithTrainedAlgorithmicMedia:
    'http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia',
  composite: 'http://cv.iptc.org/newscodes/digitalsourcetype/composite',
} as const;

/** canvas-mcp's own assertions. */
export const GENERATION_ASSERTION = 'com.canvas-mcp.generation';
export const EXPORT_ASSERTION = 'com.canvas-mcp.export';
export const EXPORT_AGENT = 'canvas-mcp export';

/** How an input took part: placed in the output, guiding its making, or the one file it is an edit of. */
export type IngredientRelationship = 'componentOf' | 'inputTo' | 'parentOf';

/** An input asset of this server, as the manifest names it. */
export interface IngredientFacts {
  assetId: string;
  title: string;
  mimeType: string;
  sha256: string;
  byteSize: number;
  relationship: IngredientRelationship;
  /** Made by a run (AI media), not uploaded. */
  generated: boolean;
}

/** An ingredient as c2pa-rs's manifest definition takes it. */
export interface IngredientDefinition {
  title: string;
  format: string;
  relationship: IngredientRelationship;
  /** Links the ingredient to the action that used it (`ingredientIds`). */
  instance_id: string;
  metadata: Record<string, string>;
}

interface Action {
  action: 'c2pa.created' | 'c2pa.opened' | 'c2pa.edited';
  digitalSourceType?: string;
  softwareAgent?: { name: string; version?: string };
  description?: string;
  parameters?: { ingredientIds: string[] };
}

export interface ManifestDefinition {
  title: string;
  format: string;
  claim_generator_info: Array<{ name: string; version: string }>;
  assertions: Array<{ label: string; data: unknown }>;
}

const GENERATOR = [{ name: 'canvas-mcp', version: PACKAGE.version }];

/** A manifest of ours: the file's title and type, what was done to make it, and our own assertion about it. */
function manifestOf(
  file: { title: string; format: string },
  actions: Action[],
  own: { label: string; data: Record<string, unknown> },
): ManifestDefinition {
  return {
    title: file.title,
    format: file.format,
    claim_generator_info: GENERATOR,
    assertions: [{ label: 'c2pa.actions', data: { actions } }, own],
  };
}

/** The ingredient's definition: its title and type, and this server's asset id and SHA-256 of its bytes. */
export function ingredientDefinition(facts: IngredientFacts): IngredientDefinition {
  return {
    title: facts.title,
    format: facts.mimeType,
    relationship: facts.relationship,
    instance_id: `canvas-mcp:${facts.assetId}`,
    metadata: {
      'com.canvas-mcp.asset_id': facts.assetId,
      'com.canvas-mcp.sha256': facts.sha256,
      'com.canvas-mcp.byte_size': String(facts.byteSize),
    },
  };
}

const idsOf = (ingredients: readonly IngredientFacts[]) =>
  ingredients.length > 0 ? { parameters: { ingredientIds: ingredients.map((i) => `canvas-mcp:${i.assetId}`) } } : {};

/** The operations that remake earlier media rather than generate it (src/runs/operations.ts). */
const EDITS = new Set(['audio_trim']);
const COMPOSITIONS = new Set(['video_composition']);

/** What a run knows of itself that its outputs' manifests name. */
export interface RunFacts {
  runId: string;
  projectId: string;
  canvasId: string;
  nodeId: string;
  operation: string;
  provider: string;
  /** The model the provider named, when it names one. */
  model: string | null;
  /** The run's inputs hash (src/runs/chain-plan.ts), when it has one. */
  inputsHash: string | null;
}

export interface RunOutputFacts extends RunFacts {
  assetId: string;
  mimeType: string;
  title: string;
  createdAt: Date;
  /** A composition made of uploads only (every clip and sound a person's file): nothing generated is in it. */
  uploadsOnly?: boolean;
}

/**
 * A run output's manifest: `c2pa.created` by the provider's model, marked trainedAlgorithmicMedia (the local provider
 * included: it stands in for a model, and its files are labelled as a model's would be); a trim is `c2pa.opened` on
 * its source then `c2pa.edited`; a composition of clips is created as a composite. The custom assertion names the
 * provider, the model, the project, the canvas and node, the run and when.
 */
export function runOutputManifest(facts: RunOutputFacts, ingredients: readonly IngredientFacts[]): ManifestDefinition {
  const agent = { name: facts.model ? `${facts.provider}/${facts.model}` : facts.provider };
  let actions: Action[];
  if (EDITS.has(facts.operation) && ingredients.some((i) => i.relationship === 'parentOf')) {
    actions = [
      { action: 'c2pa.opened', ...idsOf(ingredients.filter((i) => i.relationship === 'parentOf')) },
      { action: 'c2pa.edited', softwareAgent: agent, description: `canvas-mcp ${facts.operation}` },
    ];
  } else if (COMPOSITIONS.has(facts.operation)) {
    actions = [
      {
        action: 'c2pa.created',
        // Clips generated on the canvas (and clips not on this server, which the provider renders), or uploads only.
        digitalSourceType: facts.uploadsOnly
          ? DIGITAL_SOURCE_TYPE.composite
          : DIGITAL_SOURCE_TYPE.compositeWithTrainedAlgorithmicMedia,
        softwareAgent: agent,
        ...idsOf(ingredients),
      },
    ];
  } else {
    actions = [
      {
        action: 'c2pa.created',
        digitalSourceType: DIGITAL_SOURCE_TYPE.trainedAlgorithmicMedia,
        softwareAgent: agent,
        ...idsOf(ingredients),
      },
    ];
  }
  return manifestOf({ title: facts.title, format: facts.mimeType }, actions, {
    label: GENERATION_ASSERTION,
    data: {
      provider: facts.provider,
      model: facts.model,
      operation: facts.operation,
      project_id: facts.projectId,
      canvas_id: facts.canvasId,
      node_id: facts.nodeId,
      run_id: facts.runId,
      asset_id: facts.assetId,
      ...(facts.inputsHash ? { inputs_hash: facts.inputsHash } : {}),
      created_at: facts.createdAt.toISOString(),
    },
  });
}

export const UPLOAD_ASSERTION = 'com.canvas-mcp.upload';

export interface UploadFacts {
  projectId: string;
  fileName: string;
  mimeType: string;
  createdAt: Date;
}

/**
 * The manifest of an upload that arrived with credentials of its own (docs/provenance.md, "Uploads"): the intake
 * re-encodes it without its metadata, which would drop them, so the kept file says it opened the person's file (its
 * parent ingredient, carrying the original manifest) and edited it (metadata removed, re-encoded). No digital source
 * type: what the original was, its own manifest says.
 */
export function uploadManifest(facts: UploadFacts, parent: IngredientDefinition): ManifestDefinition {
  return manifestOf(
    { title: facts.fileName, format: facts.mimeType },
    [
      { action: 'c2pa.opened', parameters: { ingredientIds: [parent.instance_id] } },
      {
        action: 'c2pa.edited',
        softwareAgent: { name: 'canvas-mcp upload' },
        description: 'metadata removed and re-encoded on upload',
      },
    ],
    {
      label: UPLOAD_ASSERTION,
      data: { project_id: facts.projectId, file_name: facts.fileName, created_at: facts.createdAt.toISOString() },
    },
  );
}

export interface ExportFacts {
  exportId: string;
  kind: string;
  projectId: string;
  canvasId: string;
  nodeId: string;
  revision: number;
  mimeType: string;
  title: string;
  createdAt: Date;
}

/**
 * An export's manifest (a PDF board, an animatic): `c2pa.created` by "canvas-mcp export", a composite with trained
 * algorithmic media when any of its pictures, films or sounds was generated (a composite when all were uploaded), its
 * media as `componentOf` ingredients, and a custom assertion naming the export, the board and its revision.
 */
export function exportManifest(facts: ExportFacts, ingredients: readonly IngredientFacts[]): ManifestDefinition {
  const generated = ingredients.some((ingredient) => ingredient.generated);
  return manifestOf(
    { title: facts.title, format: facts.mimeType },
    [
      {
        action: 'c2pa.created',
        digitalSourceType: generated
          ? DIGITAL_SOURCE_TYPE.compositeWithTrainedAlgorithmicMedia
          : DIGITAL_SOURCE_TYPE.composite,
        softwareAgent: { name: EXPORT_AGENT, version: PACKAGE.version },
        ...idsOf(ingredients),
      },
    ],
    {
      label: EXPORT_ASSERTION,
      data: {
        export_id: facts.exportId,
        kind: facts.kind,
        project_id: facts.projectId,
        canvas_id: facts.canvasId,
        node_id: facts.nodeId,
        revision: facts.revision,
        created_at: facts.createdAt.toISOString(),
      },
    },
  );
}
