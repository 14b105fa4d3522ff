import { CanvasEdge, CanvasNode, type CanvasRef } from '../../contract/index.js';
import { RunOutputs } from '../../store/run-rows.js';
import type { ExportCreateBody, ExportList, ExportView } from '../../contract/exports.js';
import type { AssetSigner } from '../../assets/url-signing.js';
import { boardSource, type BoardSource } from '../../exports/board-source.js';
import { exportNotes } from '../../exports/review-notes.js';
import { CanvasError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { ExportsFull, StoredExport } from '../../store/export-store.js';
import type { Store } from '../../store/store.js';
import { authorizeProject, requireCanvas } from '../auth/access.js';
import type { CallerContext } from '../auth/caller.js';
import { canvasThreads } from '../review/review-views.js';

/**
 * Export jobs as people start and follow them (docs/deliverables.md, "Jobs"): editors start an export of a
 * storyboard node, every member lists them and downloads the files (viewers included: the files are for reviewers and
 * clients). What the job renders is read here, once, at the canvas's current revision; the workers do the rest.
 * Limits are checked before the job is queued: a board with no shots, or an animatic longer than the setting, is
 * refused naming why.
 */

export const EXPORT_ID_PREFIX = 'export_';

export interface ExportSignals {
  exportQueued(): void;
  cancelRequested(exportId: string): void;
}

export interface ExportSettings {
  /** The longest animatic an export may make (`--export-max-minutes`). */
  maxMinutes: number;
  /** Exports one person may have queued or running at once (`--exports-per-person`). */
  perPerson: number;
  /** Exports one project may have queued or running at once (`--exports-per-project`). */
  perProject: number;
}

/** An export that would pass a cap: each queued job holds a worker for up to its length (a 29-minute animatic). */
function exportsFull(full: ExportsFull, projectId: string): CanvasError {
  const [setting, whose] =
    full.scope === 'person'
      ? ['--exports-per-person, CANVAS_MCP_EXPORTS_PER_PERSON', 'You have']
      : ['--exports-per-project, CANVAS_MCP_EXPORTS_PER_PROJECT', `Project ${projectId} has`];
  return new CanvasError(
    'rate_limited',
    `${whose} ${full.active} exports queued or running, the most this server takes at once (${full.limit}: ${setting}); start this one when one of them ends, or cancel one.`,
    // Most exports take seconds; an animatic can take minutes. A minute is a fair first wait.
    { scope: full.scope, active: full.active, limit: full.limit, retry_after_ms: 60_000 },
  );
}

export function exportView(job: StoredExport, signer: AssetSigner | undefined): ExportView {
  return {
    export_id: job.id,
    project_id: job.projectId,
    canvas_id: job.canvasId,
    node_id: job.nodeId,
    kind: job.kind as ExportView['kind'],
    options: job.options,
    revision: job.revision,
    // A cancel asked for is still running until its worker stops: people see it end as cancelled.
    status: job.status === 'cancel_requested' ? 'running' : job.status,
    progress: job.progress,
    created_by: job.createdByName,
    created_at: new Date(job.createdAt).toISOString(),
    finished_at: job.finishedAt === null ? null : new Date(job.finishedAt).toISOString(),
    file: job.file
      ? {
          name: job.file.name,
          content_type: job.file.contentType,
          bytes: job.file.bytes,
          url: signer ? signer.sign(job.file.assetId) : `/assets/${job.file.assetId}`,
        }
      : null,
    warnings: job.warnings,
    error: job.error,
  };
}

/**
 * Whether an export carries the board's review notes: the timelines as markers unless `markers: false`, the PDF
 * storyboard with `notes_pages` (docs/deliverables.md, "Markers and notes pages").
 */
function carriesNotes(body: ExportCreateBody): boolean {
  if ('markers' in body.options) return body.options.markers;
  return 'notes_pages' in body.options && body.options.notes_pages;
}

/** The output of one kind of each node's latest succeeded run, by node id. */
async function latestRunOutputs(store: Store, ref: CanvasRef, kind: 'image' | 'audio'): Promise<Map<string, string>> {
  const outputs = new Map<string, string>();
  for (const run of await store.runs.latestRunsByNode(ref.projectId, ref.canvasId)) {
    if (run.status !== 'succeeded') continue;
    const output = RunOutputs.parse(JSON.parse(run.outputs)).find((each) => each.kind === kind);
    if (output) outputs.set(run.node_id, output.asset_id);
  }
  return outputs;
}

/** The picture of each node's latest succeeded run (a source card whose data holds no picture yet). */
export const latestPictures = (store: Store, ref: CanvasRef) => latestRunOutputs(store, ref, 'image');

/** The sound of each node's latest succeeded run (a voice-over or music card that was run, not given a file). */
export const latestSounds = (store: Store, ref: CanvasRef) => latestRunOutputs(store, ref, 'audio');

export function createExportOperations(
  store: Store,
  options: { signer?: AssetSigner; signals: () => ExportSignals | null; settings: ExportSettings },
) {
  const { signer } = options;

  async function readSource(
    ref: CanvasRef,
    body: ExportCreateBody,
  ): Promise<{ source: BoardSource; revision: number }> {
    const load = await store.layout.loadLayout(ref.projectId, ref.canvasId);
    if (!load) throw new CanvasError('not_found', `No canvas ${ref.canvasId} in project ${ref.projectId}.`);
    const nodes = new Map<string, CanvasNode>();
    for (const row of load.nodes) {
      const node = CanvasNode.parse(JSON.parse(row.body));
      nodes.set(node.id, node);
    }
    const board = nodes.get(body.node_id);
    if (!board)
      throw new CanvasError('not_found', `node_id: there is no node ${body.node_id} on this canvas.`, {
        field: 'node_id',
      });
    if (board.type !== 'storyboardNode')
      throw new CanvasError(
        'invalid_arguments',
        `node_id: ${body.node_id} is a ${board.type}; exports are made from a storyboard (storyboardNode).`,
        { field: 'node_id' },
      );
    const edges = load.edges.map((row) => CanvasEdge.parse(JSON.parse(row.body)));
    const music = 'music_node_id' in body.options ? body.options.music_node_id : null;
    if (music && nodes.get(music)?.type !== 'audioNode')
      throw new CanvasError(
        'invalid_arguments',
        `options.music_node_id: ${music} is not an audio node of this canvas.`,
        { field: 'options.music_node_id' },
      );
    const logo = 'logo_asset_id' in body.options ? body.options.logo_asset_id : null;
    if (logo) {
      const record = await store.assets.getAsset(logo);
      if (!record || record.projectId !== ref.projectId || record.kind !== 'image')
        throw new CanvasError(
          'invalid_arguments',
          `options.logo_asset_id: ${logo} is not a picture uploaded to this project.`,
          { field: 'options.logo_asset_id' },
        );
    }
    const titles = await store.exports.titles(ref.projectId, ref.canvasId);
    const source = boardSource(
      {
        board,
        nodes,
        edges,
        latestPictures: await latestPictures(store, ref),
        latestSounds: await latestSounds(store, ref),
        projectName: titles.project,
        canvasTitle: titles.canvas,
      },
      { music_node_id: music, logo_asset_id: logo },
    );
    // Read with the board, so the job writes the notes open when it was queued, whatever happens to them meanwhile.
    if (carriesNotes(body)) {
      const { notes, leftOut } = exportNotes(await canvasThreads(store, ref, { nodeIds: [board.id] }), board.id);
      return { source: { ...source, notes, notesLeftOut: leftOut }, revision: load.canvas.revision };
    }
    return { source, revision: load.canvas.revision };
  }

  function checkLimits(body: ExportCreateBody, source: BoardSource): void {
    if (source.shots.length === 0)
      throw new CanvasError('invalid_arguments', `node_id: the board ${body.node_id} has no shots to export.`, {
        field: 'node_id',
      });
    if (body.kind !== 'animatic') return;
    const totalMs = source.shots.reduce((sum, shot) => sum + shot.durationMs, 0);
    const limitMs = options.settings.maxMinutes * 60_000;
    if (totalMs > limitMs)
      throw new CanvasError(
        'invalid_arguments',
        `The board runs ${(totalMs / 60_000).toFixed(1)} minutes; animatics on this server may run at most ${options.settings.maxMinutes} (--export-max-minutes).`,
        { field: 'node_id' },
      );
  }

  async function requireExport(ref: CanvasRef, exportId: string): Promise<StoredExport> {
    const job = await store.exports.get(ref.projectId, ref.canvasId, exportId);
    if (!job) throw new CanvasError('not_found', `No export ${exportId} on canvas ${ref.canvasId}.`);
    return job;
  }

  return {
    async create(ctx: CallerContext, ref: CanvasRef, body: ExportCreateBody): Promise<ExportView> {
      await authorizeProject(store, ctx, ref.projectId, 'editor');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      const { source, revision } = await readSource(ref, body);
      checkLimits(body, source);
      const person = ctx.principal.kind === 'session' ? ctx.principal.person : ctx.actor;
      const who = person?.subject ?? (ctx.principal.kind === 'session' ? 'someone' : ctx.principal.tokenName);
      const outcome = await store.exports.create(
        {
          id: newId(EXPORT_ID_PREFIX),
          projectId: ref.projectId,
          canvasId: ref.canvasId,
          nodeId: body.node_id,
          kind: body.kind,
          options: body.options,
          source,
          revision,
          createdBy: who,
          createdByName: who,
        },
        { perPerson: options.settings.perPerson, perProject: options.settings.perProject },
      );
      if ('full' in outcome) throw exportsFull(outcome.full, ref.projectId);
      options.signals()?.exportQueued();
      return exportView(outcome.created, signer);
    },

    async list(ctx: CallerContext, ref: CanvasRef): Promise<ExportList> {
      await authorizeProject(store, ctx, ref.projectId, 'viewer');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      return { exports: (await store.exports.list(ref.projectId, ref.canvasId)).map((job) => exportView(job, signer)) };
    },

    async get(ctx: CallerContext, ref: CanvasRef, exportId: string): Promise<ExportView> {
      await authorizeProject(store, ctx, ref.projectId, 'viewer');
      return exportView(await requireExport(ref, exportId), signer);
    },

    /** Stops a queued or running export (nothing is kept); an export already finished answers as it is. */
    async cancel(ctx: CallerContext, ref: CanvasRef, exportId: string): Promise<ExportView> {
      await authorizeProject(store, ctx, ref.projectId, 'editor');
      await requireExport(ref, exportId);
      if (await store.exports.requestCancel(ref.projectId, ref.canvasId, exportId))
        options.signals()?.cancelRequested(exportId);
      return exportView(await requireExport(ref, exportId), signer);
    },
  };
}

export type ExportOperations = ReturnType<typeof createExportOperations>;
