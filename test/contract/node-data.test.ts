import { describe, it } from 'vitest';
import { CreateCanvasNodeArgs, NODE_TYPES, type NodeType } from '../../src/contract/index.js';
import { accept, expectVerdict, refuse, type Case } from '../support/dual-validator.js';
import {
  IMAGE_TYPES,
  MINIMAL_DATA,
  MINIMAL_DIRECTOR_BUNDLE,
  node,
  withData,
  withoutDataKey,
} from '../support/node-fixtures.js';

function check(nodeValue: unknown, valid: boolean): void {
  expectVerdict(CreateCanvasNodeArgs, { project_id: 'p', canvas_id: 'c', base_revision: 0, node: nodeValue }, valid);
}

const ALL_COMMON_FIELDS = {
  displayName: 'Title',
  externalRunId: 'run-1',
  externalRunStatus: 'cancel_requested',
  externalRunTriggeredBy: 'agent',
  externalRunTriggeredByName: 'planner',
  gatewayTextModelId: null,
  gatewayTextOperationId: 'op',
  gatewayTextOperationAction: null,
  generationErrorRequestId: null,
  generationAttemptId: 'attempt-2',
};

describe('data shapes: every type', () => {
  it.each(NODE_TYPES)('%s: its minimal data is accepted', (type) => check(node(type), true));

  it.each(NODE_TYPES)('%s: an unknown data key is refused', (type) => check(withData(type, { unknownKey: 1 }), false));

  it.each(NODE_TYPES.flatMap((type) => Object.keys(MINIMAL_DATA[type]).map((key) => [type, key] as const)))(
    '%s: missing required %s is refused',
    (type, key) => check(withoutDataKey(type, key), false),
  );

  it.each(NODE_TYPES)('%s: all common fields are accepted', (type) => check(withData(type, ALL_COMMON_FIELDS), true));

  it.each(NODE_TYPES)('%s: the common fields accept null where the spec allows it', (type) =>
    check(
      withData(type, {
        externalRunId: null,
        externalRunStatus: null,
        externalRunTriggeredBy: null,
        externalRunTriggeredByName: null,
        gatewayTextOperationId: null,
        generationErrorRequestId: null,
        generationAttemptId: null,
      }),
      true,
    ),
  );

  const commonRefusals: Array<[string, Record<string, unknown>]> = [
    ['displayName null', { displayName: null }],
    ['externalRunStatus "done"', { externalRunStatus: 'done' }],
    ['externalRunStatus "queued"', { externalRunStatus: 'queued' }],
    ['externalRunTriggeredBy "bot"', { externalRunTriggeredBy: 'bot' }],
    ['externalRunId a number', { externalRunId: 7 }],
    ['gatewayTextModelId a boolean', { gatewayTextModelId: true }],
  ];
  it.each(NODE_TYPES.flatMap((type) => commonRefusals.map(([name, patch]) => [type, name, patch] as const)))(
    '%s: common field %s is refused',
    (type, _name, patch) => check(withData(type, patch), false),
  );
});

describe('shared image-result fields', () => {
  const allShared = {
    imageUrl: 'https://cdn.example/a.png',
    previewImageUrl: null,
    deliveryPresentationReady: true,
    deliveryOriginalState: 'processing',
    deliveryOperationId: null,
    aspectRatio: '2:3',
    isSizeManuallyAdjusted: false,
    candidate_origin: { anything: { nested: [1, 'two'] } },
    output_role: 'hero',
    committed_at: null,
    committed_slot_url: 'https://cdn.example/slot.png',
    director_control_bundle: MINIMAL_DIRECTOR_BUNDLE,
    media_kind: 'image',
  };
  it.each(IMAGE_TYPES)('%s accepts every shared field', (type) => check(withData(type, allShared), true));
  it.each(
    IMAGE_TYPES.flatMap((type) =>
      [
        ['deliveryOriginalState "done"', { deliveryOriginalState: 'done' }],
        ['candidate_origin as a string', { candidate_origin: 'x' }],
        ['imageUrl a number', { imageUrl: 1 }],
        ['aspectRatio null', { aspectRatio: null }],
        ['deliveryPresentationReady "true"', { deliveryPresentationReady: 'true' }],
        [
          'director_control_bundle with the wrong schema_version',
          {
            director_control_bundle: { ...MINIMAL_DIRECTOR_BUNDLE, schema_version: 'director_control_bundle_v2' },
          },
        ],
      ].map(([name, patch]) => [type, name, patch] as const),
    ),
  )('%s refuses %s', (type, _name, patch) => check(withData(type, patch as Record<string, unknown>), false));

  it.each(['groupNode', 'textAnnotationNode', 'audioNode'] as const)(
    '%s does not take image-result fields (committed_slot_url)',
    (type) => check(withData(type, { committed_slot_url: null }), false),
  );
});

const typeCases: Record<NodeType, Case[]> = {
  imageNode: [
    accept('every field', {
      model: 'm',
      gatewayModelId: null,
      resolvedModelId: 'r',
      size: '0.5K',
      requestAspectRatio: '16:9',
      generationMode: 'image_reference',
      extraParams: { seed: 1 },
      modelParams: {},
      capabilityParams: { a: [1] },
      capabilityDefaultPushTarget: { slot: 'x' },
      capabilityId: 'cap',
      capabilityOutputKind: 'image',
      compiledPromptPreview: '...',
      capabilityInputs: { ref: 'https://x', strength: 0.5, list: [1, 2], none: null },
      isGenerating: true,
      generationStartedAt: null,
      generationDurationMs: 1200,
    }),
    accept('size 4K', { size: '4K' }),
    refuse('size 3K', { size: '3K' }),
    refuse('size 1k (lower case)', { size: '1k' }),
    refuse('generationMode "inpaint"', { generationMode: 'inpaint' }),
    refuse('extraParams as an array', { extraParams: [] }),
    refuse('generationStartedAt a string', { generationStartedAt: '2026-01-01' }),
    refuse('prompt null', { prompt: null }),
  ],
  imageGenNode: [
    accept('every field', {
      generationMode: 'text_to_image',
      model: 'm',
      quality: 'high',
      requestAspectRatio: '1:1',
      resolvedModelId: null,
      generationBatchId: 'b',
      styleTemplateId: null,
      referenceImageUrl: null,
      generationBatch: ['u1', 'u2'],
      generationBatchStatus: 'partial_failed',
      modelParams: { steps: 30 },
      count: 4,
      contextPromptMarker: { token: '{{beat}}' },
      focusRegion: { sourceUrl: 'u', x: 0, y: 0, width: 10, height: 10, aspectRatio: '1:1' },
      cameraSelection: { cameraBodyId: null, lensId: 'l', focalLengthMm: 35, aperture: 'f/2.8' },
      autoCommitOnGenerate: true,
      marks: [
        { id: 'm1', kind: 'point', x: 0, y: 1 },
        { id: 'm2', kind: 'box', x: 0.1, y: 0.1, width: 0.5, height: 1, label: 'door', color: '#0f0' },
      ],
      isGenerating: false,
      generationStartedAt: 1,
      generationDurationMs: 0,
      generationError: null,
    }),
    accept('count 1', { count: 1 }),
    accept('count 2', { count: 2 }),
    accept('generationBatch null', { generationBatch: null }),
    accept('contextPromptMarker null', { contextPromptMarker: null }),
    accept('focusRegion null', { focusRegion: null }),
    accept('cameraSelection null', { cameraSelection: null }),
    accept('cameraSelection empty', { cameraSelection: {} }),
    refuse('count 3', { count: 3 }),
    refuse('count 0', { count: 0 }),
    refuse('count "2"', { count: '2' }),
    refuse('size 3K', { size: '3K' }),
    refuse('focusRegion without height', { focusRegion: { sourceUrl: 'u', x: 0, y: 0, width: 1 } }),
    refuse('focusRegion with an unknown key', {
      focusRegion: { sourceUrl: 'u', x: 0, y: 0, width: 1, height: 1, rotation: 0 },
    }),
    refuse('cameraSelection with an unknown key', { cameraSelection: { iso: 100 } }),
    refuse('cameraSelection focalLengthMm as a string', { cameraSelection: { focalLengthMm: '35mm' } }),
    refuse('generationBatchStatus "queued"', { generationBatchStatus: 'queued' }),
    refuse('generationBatch with a number', { generationBatch: [1] }),
    // Spec: marks "item shape not given": any item is accepted; only the array bound applies.
    accept('a mark of any kind', { marks: [{ id: 'm', kind: 'circle', x: 0, y: 0 }] }),
    accept('a mark in pixel coordinates', { marks: [{ id: 'm', kind: 'point', x: 640, y: 360 }] }),
    accept('marks that are not objects', { marks: ['x', 1, null, [0, 1]] }),
    refuse('marks that are not an array', { marks: { id: 'm' } }),
    refuse('more than 1000 marks', { marks: Array.from({ length: 1001 }, (_, index) => ({ id: `m${index}` })) }),
    refuse('contextPromptMarker as a string', { contextPromptMarker: 'x' }),
  ],
  exportImageNode: [
    ...['generic', 'storyboardGenOutput', 'storyboardSplitExport', 'storyboardFrameEdit', 'matte', 'upscale'].map(
      (resultKind) => accept(`resultKind ${resultKind}`, { resultKind }),
    ),
    refuse('resultKind "crop"', { resultKind: 'crop' }),
    refuse('prompt (not an exportImageNode field)', { prompt: 'x' }),
  ],
  audioNode: [
    accept('every field', {
      audioUrl: 'https://cdn.example/a.mp3',
      sourceFileName: null,
      resolvedModelId: null,
      gatewayModelId: 'g',
      durationMs: null,
      isUploading: false,
      isGenerating: true,
      forceInstrumental: false,
      respectSectionsDurations: true,
      audioKind: 'music',
      musicLengthMs: 30000,
      text: 'hello',
      emotionPrompt: 'calm',
      voiceLabel: 'Narrator',
      voiceLanguage: 'en',
      segments: [
        { id: 's1', kind: 'speech', text: 'Hello', voiceRef: { scope: 'identity', identityId: 'i1' }, startMs: 0 },
        { id: 's2', kind: 'music', label: 'verse', durationMs: 8000 },
        { id: 's3', kind: 'silence', durationMs: 500 },
      ],
      voiceRef: {
        scope: 'character_default',
        characterName: 'Mara',
        identityId: 'i',
        slot: 'default',
        voiceId: 'v',
      },
      generationStartedAt: 5,
      generationError: null,
      convertingAudioFormat: 'm4a',
    }),
    ...[
      'project_narrator',
      'user_custom',
      'character_default',
      'character_age_group',
      'identity',
      'identity_resolved',
    ].map((scope) => accept(`voiceRef scope ${scope}`, { voiceRef: { scope } })),
    accept('voiceRef null', { voiceRef: null }),
    accept('convertingAudioFormat null', { convertingAudioFormat: null }),
    refuse('audioUrl missing (required even though nullable)', { audioUrl: undefined }),
    refuse('voiceRef without scope', { voiceRef: { voiceId: 'v' } }),
    refuse('voiceRef scope "global"', { voiceRef: { scope: 'global' } }),
    refuse('voiceRef with an unknown key', { voiceRef: { scope: 'identity', pitch: 2 } }),
    refuse('audioKind "noise"', { audioKind: 'noise' }),
    refuse('convertingAudioFormat "ogg"', { convertingAudioFormat: 'ogg' }),
    // Spec: segments are "segment objects (item shapes … not given)": any object.
    accept('a segment with only text', { segments: [{ text: 'hi' }] }),
    accept('a segment of a kind we do not know', { segments: [{ id: 's', kind: 'sfx', durationMs: 1, gain: 2 }] }),
    refuse('a segment that is not an object', { segments: ['hi'] }),
    refuse('a segment with a "__proto__" key', { segments: [JSON.parse('{"__proto__": {"x": 1}}')] }),
  ],
  audioTrimNode: [
    accept('every field', {
      trimStartMs: 0,
      trimEndMs: null,
      resultAudioUrl: null,
      isExporting: false,
      exportError: null,
      draftTimeline: { tracks: [] },
    }),
    accept('draftTimeline null', { draftTimeline: null }),
    refuse('trimStartMs "0"', { trimStartMs: '0' }),
    refuse('trimStartMs null', { trimStartMs: null }),
    refuse('draftTimeline as an array', { draftTimeline: [] }),
  ],
  beatContextNode: [
    accept('every field', {
      content: 'c',
      projectId: 'p',
      errorMessage: '',
      episode: 1,
      beat: 2.5,
      snapshot: { episode: 1, beat: 2, content: 'c', capturedAt: '2026-11-01T00:00:00Z' },
      syncStatus: 'stale',
      mainline_context: [{ any: 'json' }, 1, null],
      beat_edit_fields: { title: 'x' },
    }),
    accept('mainline_context null', { mainline_context: null }),
    accept('mainline_context a string', { mainline_context: 'text' }),
    refuse('syncStatus "broken"', { syncStatus: 'broken' }),
    // Spec: snapshot "object (shape not given)".
    accept('snapshot with keys we do not recommend', { snapshot: { foo: 1, hash: 'x' } }),
    refuse('snapshot that is not an object', { snapshot: 'x' }),
    refuse('episode as a string', { episode: 'one' }),
  ],
  groupNode: [
    accept('every field', {
      backgroundColor: null,
      storyboardGroup: true,
      storyboardShowIndex: false,
      storyboardAspect: '16:9',
      storyboardCols: 3,
      storyboardBaseWidth: 320,
      storyboardBaseHeight: 180,
    }),
    refuse('label null', { label: null }),
    refuse('storyboardCols as a string', { storyboardCols: '3' }),
  ],
  textAnnotationNode: [
    accept('an empty note', { content: '' }),
    accept('presentation fields', {
      fontSize: 14,
      textColor: '#111',
      backgroundColor: null,
      textAlign: 'center',
    }),
    refuse('content null', { content: null }),
    refuse('fontSize 0', { fontSize: 0 }),
    refuse('textAlign "justify"', { textAlign: 'justify' }),
    refuse('text instead of content', { text: 'x' }),
  ],
  scriptNode: [
    accept('every field', {
      prompt: 'p',
      model: 'm',
      resolvedModelId: null,
      scriptTitle: null,
      generationError: null,
      lastAction: 'fromCharacter',
      scriptResult: { scenes: [] },
      isGenerating: false,
      generationStartedAt: null,
      generationDurationMs: 1,
    }),
    accept('lastAction null', { lastAction: null }),
    refuse('lastAction "fromImage"', { lastAction: 'fromImage' }),
  ],
  pano360ViewerNode: [
    accept('every field', {
      previewImageUrl: null,
      sourceNodeId: 'n1',
      lastExportedEntry: { url: 'x' },
    }),
    accept('lastExportedEntry null', { lastExportedEntry: null }),
    // Spec: sphereCorrectionDeg "object (shape not given)", required.
    accept('sphereCorrectionDeg empty', { sphereCorrectionDeg: {} }),
    accept('sphereCorrectionDeg with other keys', { sphereCorrectionDeg: { yaw: 0, pitch: 0, roll: 0, tilt: 0 } }),
    refuse('sphereCorrectionDeg a number', { sphereCorrectionDeg: 3 }),
    refuse('fovDeg null', { fovDeg: null }),
  ],
  skillNode: [
    accept('every field', {
      skill_id: 'zone.frame_from_context',
      skill_schema_version: 'skill.v1',
      isGenerating: false,
      generationStartedAt: null,
      generationError: null,
      skillRunId: null,
      skillInputSignature: 'sig',
      skillIdempotencyKey: null,
      generationTaskKey: null,
      generationTaskType: 'frame',
      generationTaskJobId: null,
      parameters: { quality: 'medium', background_reference_mode: 'scene_anchor' },
    }),
    accept('zone.sketch_from_context with aspect_ratio 2:3', {
      skill_id: 'zone.sketch_from_context',
      parameters: { aspect_ratio: '2:3' },
    }),
    accept('zone.sketch_from_director_combined with aspect_ratio 16:9', {
      skill_id: 'zone.sketch_from_director_combined',
      parameters: { aspect_ratio: '16:9' },
    }),
    ...[
      'zone.set_selected_background',
      'zone.set_director_combined',
      'zone.scene_360',
      'agent.review_frame',
      'workflow.plan_beat_graph',
    ].flatMap((skill_id) => [
      accept(`${skill_id} with empty parameters`, { skill_id, parameters: {} }),
      refuse(`${skill_id} with a parameter`, { skill_id, parameters: { aspect_ratio: '2:3' } }),
    ]),
    accept('parameters omitted', { skill_id: 'zone.frame_from_context' }),
    refuse('parameters of another skill (quality on a sketch skill)', {
      skill_id: 'zone.sketch_from_context',
      parameters: { quality: 'high' },
    }),
    refuse('parameters of another skill (aspect_ratio on frame_from_context)', {
      skill_id: 'zone.frame_from_context',
      parameters: { aspect_ratio: '16:9' },
    }),
    refuse('aspect_ratio 4:3', { skill_id: 'zone.sketch_from_context', parameters: { aspect_ratio: '4:3' } }),
    refuse('quality "ultra"', { skill_id: 'zone.frame_from_context', parameters: { quality: 'ultra' } }),
    refuse('background_reference_mode "full"', {
      skill_id: 'zone.frame_from_context',
      parameters: { background_reference_mode: 'full' },
    }),
    refuse('an unknown skill_id', { skill_id: 'zone.unknown' }),
    refuse('skill_schema_version "skill.v2"', { skill_schema_version: 'skill.v2' }),
    refuse('parameters null', { parameters: null }),
  ],
  uploadNode: [
    accept('every field', {
      fileUrl: 'https://cdn.example/f.png',
      fileName: 'f.png',
      mimeType: 'image/png',
      mediaKind: 'image',
      sizeBytes: 0,
      previewImageUrl: null,
      aspectRatio: '1:1',
      isUploading: false,
      uploadError: null,
    }),
    refuse('sizeBytes -1', { sizeBytes: -1 }),
    refuse('sizeBytes 1.5', { sizeBytes: 1.5 }),
    refuse('mediaKind "archive"', { mediaKind: 'archive' }),
  ],
  storyboardNode: [
    accept('frames and layout', {
      frames: [{ id: 'f1', imageUrl: null, caption: 'c', shotType: 'wide', durationMs: 2000, sourceNodeId: 'n' }],
      title: 'Ep 1',
      aspectRatio: '16:9',
      columns: 3,
    }),
    refuse('a frame without imageUrl', { frames: [{ id: 'f1' }] }),
    refuse('columns 0', { columns: 0 }),
  ],
  storyboardGenNode: [
    accept('every field', {
      frameCount: 64,
      aspectRatio: '2:3',
      size: '1K',
      model: 'm',
      resolvedModelId: null,
      styleTemplateId: null,
      resultFrames: [{ id: 'f', imageUrl: 'u' }],
      isGenerating: false,
      generationStartedAt: null,
      generationDurationMs: 0,
      generationError: null,
    }),
    refuse('frameCount 0', { frameCount: 0 }),
    refuse('frameCount 65', { frameCount: 65 }),
  ],
  videoNode: [
    accept('every field', {
      previewImageUrl: null,
      sourceFileName: 'clip.mp4',
      sourceImageUrl: null,
      durationMs: 4000,
      aspectRatio: '9:16',
      prompt: 'p',
      model: 'm',
      resolvedModelId: null,
      isUploading: false,
      isGenerating: false,
      generationStartedAt: null,
      generationDurationMs: 0,
      generationError: null,
    }),
    refuse('videoUrl a number', { videoUrl: 1 }),
  ],
  videoStoryNode: [
    accept('shots', {
      shots: [{ id: 's', prompt: 'p', durationMs: 3000, imageUrl: null, videoUrl: null, sourceNodeId: null }],
      title: 't',
      aspectRatio: '16:9',
      resultVideoUrl: null,
    }),
    refuse('a shot of 0 ms', { shots: [{ id: 's', prompt: 'p', durationMs: 0 }] }),
  ],
  videoComposeNode: [
    accept('clips', {
      clips: [{ id: 'c', videoUrl: null, sourceNodeId: 'n', startMs: 0, trimStartMs: 0, trimEndMs: null }],
      audioTrackUrl: null,
      resultVideoUrl: null,
      aspectRatio: '16:9',
      isExporting: false,
      exportError: null,
    }),
    refuse('a clip starting at -1 ms', { clips: [{ id: 'c', videoUrl: null, startMs: -1 }] }),
  ],
  threeDWorldNode: [
    accept('sources in the world source shape', {
      sources: [
        {
          source_type: 'mesh',
          id: 'w1',
          source_kind: 'active',
          label: 'Harbor',
          urls: { glb: 'https://cdn.example/w.glb' },
          slot_kind: 'scene_360_candidate',
          current: true,
          transform: { xOffset: 0, yOffset: 0, zOffset: 0, yawDeg: 90, pitchDeg: 0, rollDeg: 0, scale: 1 },
        },
        { source_type: 'sog' },
      ],
      activeSourceId: 'w1',
    }),
    refuse('a source without source_type', { sources: [{ id: 'w' }] }),
    refuse('a source_type "nerf"', { sources: [{ source_type: 'nerf' }] }),
    refuse('a source_kind "primary"', { sources: [{ source_type: 'sog', source_kind: 'primary' }] }),
    refuse('a transform missing scale', {
      sources: [
        { source_type: 'sog', transform: { xOffset: 0, yOffset: 0, zOffset: 0, yawDeg: 0, pitchDeg: 0, rollDeg: 0 } },
      ],
    }),
  ],
  floorPlanNode: [
    accept('walls, doors, props, characters with positions per beat, and a camera linked to a shot', {
      title: 'Scene 2: the kitchen',
      walls: [
        {
          id: 'w1',
          points: [
            { x: 0, y: 0 },
            { x: 6, y: 0 },
            { x: 6, y: 4 },
          ],
        },
      ],
      doors: [{ id: 'd1', x: 2, y: 0, width: 0.9, angleDeg: 90 }],
      props: [{ id: 'table', name: 'Table', x: 3, y: 2, width: 1.6, depth: 0.9, rotationDeg: 15 }],
      characters: [{ id: 'mara', name: 'Mara' }],
      beats: [{ id: 'b1', label: 'enters', positions: [{ character_id: 'mara', x: 2, y: 0.5, facingDeg: 90 }] }],
      cameras: [
        {
          id: 'A',
          name: 'A',
          x: 1,
          y: 3,
          directionDeg: -30,
          sensor: 'super35',
          lensMm: 35,
          shot: { board_node_id: 'board-1', shot_id: 'shot-5' },
        },
      ],
    }),
    accept('a camera with no shot', {
      cameras: [{ id: 'B', name: 'B', x: 0, y: 0, directionDeg: 0, sensor: 'full_frame', lensMm: 50, shot: null }],
    }),
    refuse('a camera with an unknown sensor format', {
      cameras: [{ id: 'B', name: 'B', x: 0, y: 0, directionDeg: 0, sensor: 'imax', lensMm: 50 }],
    }),
    refuse('a camera with a 0 mm lens', {
      cameras: [{ id: 'B', name: 'B', x: 0, y: 0, directionDeg: 0, sensor: 'super35', lensMm: 0 }],
    }),
    refuse('a wall of one point', { walls: [{ id: 'w', points: [{ x: 0, y: 0 }] }] }),
    refuse('a point given as an [x, y] pair', {
      walls: [
        {
          id: 'w',
          points: [
            [0, 0],
            [1, 1],
          ],
        },
      ],
    }),
    refuse('a point with a z', {
      walls: [
        {
          id: 'w',
          points: [
            { x: 0, y: 0, z: 1 },
            { x: 1, y: 1 },
          ],
        },
      ],
    }),
    refuse('a coordinate beyond 1000 m', {
      walls: [
        {
          id: 'w',
          points: [
            { x: 0, y: 0 },
            { x: 1001, y: 0 },
          ],
        },
      ],
    }),
    refuse('a shot link by number, not by id', {
      cameras: [
        { id: 'B', name: 'B', x: 0, y: 0, directionDeg: 0, sensor: 'super35', lensMm: 35, shot: { number: '5' } },
      ],
    }),
    refuse('51 cameras', {
      cameras: Array.from({ length: 51 }, (_, index) => ({
        id: `c${index}`,
        name: `${index}`,
        x: 0,
        y: 0,
        directionDeg: 0,
        sensor: 'super35',
        lensMm: 35,
      })),
    }),
  ],
};

describe('data shapes: per-type rules', () => {
  it.each(NODE_TYPES.flatMap((type) => typeCases[type].map((entry) => [type, entry.name, entry] as const)))(
    '%s: %s',
    (type, _name, { value, valid }) => check(withData(type, value as Record<string, unknown>), valid),
  );
});

describe('bounds of node data (published in the JSON Schema, so ajv agrees)', () => {
  it.each([
    accept('a prompt of 100,000 characters', { prompt: 'x'.repeat(100_000) }),
    accept('a prompt of 100,000 astral code points (200,000 UTF-16 units): length counts code points', {
      prompt: '\u{1F3AC}'.repeat(100_000),
    }),
    refuse('a prompt of 100,001 characters', { prompt: 'x'.repeat(100_001) }),
    refuse('a prompt of 100,001 astral code points', { prompt: '\u{1F3AC}'.repeat(100_001) }),
    accept('1,000 marks', { marks: Array.from({ length: 1000 }, (_, index) => ({ id: `m${index}` })) }),
    refuse('101 generationBatch ids', { generationBatch: Array.from({ length: 101 }, (_, index) => `b${index}`) }),
  ])('imageGenNode: $name → valid: $valid', ({ value, valid }) =>
    check(withData('imageGenNode', value as Record<string, unknown>), valid),
  );
});
