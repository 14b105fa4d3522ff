import { randomBytes } from 'node:crypto';
import {
  CanvasSnapshot,
  MAX_BATCH_OPERATIONS,
  type CanvasEdge,
  type CanvasNode,
  type CanvasRef,
  type LayoutOperation,
  type TemplateCreateBody,
  type TemplateList,
  type TemplateView,
} from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import type { Store } from '../../store/store.js';
import { BUILTIN_TEMPLATES, builtinTemplate } from '../../storyboard/templates/builtin.js';
import { authorizeProject, requireCanvas } from '../auth/access.js';
import { requirePerson } from '../team/people-operations.js';
import type { CallerContext } from '../auth/caller.js';
import type { CanvasBackend } from '../canvas/backend.js';

/**
 * Canvas templates (docs/storyboards.md, "Templates"): the built-in ones and a project's own, which
 * an owner saves from a canvas as it is (its nodes and edges; runs are not part of it). Making a canvas from one
 * writes the layout into the new canvas as its creator, like every other write.
 */

type Layout = { nodes: CanvasNode[]; edges: CanvasEdge[] };

/** Writes a layout into a canvas at revision 0, in batches (parents come before their children in a layout). */
export async function writeLayout(backend: CanvasBackend, ctx: CallerContext, ref: CanvasRef, layout: Layout) {
  const operations: LayoutOperation[] = [
    ...layout.nodes.map((node) => ({ op: 'create_node' as const, node })),
    ...layout.edges.map((edge) => ({ op: 'create_edge' as const, edge })),
  ];
  let revision = 0;
  for (let start = 0; start < operations.length; start += MAX_BATCH_OPERATIONS) {
    const receipt = await backend.applyBatch(ctx, {
      ...ref,
      baseRevision: revision,
      clientSaveId: null,
      operations: operations.slice(start, start + MAX_BATCH_OPERATIONS),
    });
    revision = receipt.revision;
  }
  return revision;
}

export function createTemplateOperations(store: Store, backend: CanvasBackend) {
  const builtinViews: TemplateView[] = BUILTIN_TEMPLATES.map((template) => ({
    template_id: template.id,
    title: template.title,
    description: template.description,
    kind: 'builtin',
  }));

  return {
    async list(ctx: CallerContext, projectId: string): Promise<TemplateList> {
      await authorizeProject(store, ctx, projectId, 'viewer');
      const own = (await store.templates.list(projectId)).map((template): TemplateView => ({
        template_id: template.id,
        title: template.title,
        description: `Saved from the canvas ${template.sourceCanvasId}.`,
        kind: 'project',
      }));
      return { templates: [...builtinViews, ...own] };
    },

    async save(ctx: CallerContext, projectId: string, body: TemplateCreateBody): Promise<TemplateView> {
      const by = requirePerson(ctx, 'save templates');
      await authorizeProject(store, ctx, projectId, 'owner');
      await requireCanvas(store, projectId, body.canvas_id);
      const snapshot = CanvasSnapshot.parse(
        JSON.parse((await backend.readSnapshot(ctx, { projectId, canvasId: body.canvas_id })).payload.json),
      );
      const id = `tpl-${randomBytes(4).toString('hex')}`;
      const layout = JSON.stringify({ nodes: snapshot.layout.nodes, edges: snapshot.layout.edges });
      await store.templates.save(projectId, { id, title: body.title, sourceCanvasId: body.canvas_id, layout }, by);
      await store.team.record({
        projectId,
        actor: by,
        action: 'template.save',
        target: id,
        details: { canvas_id: body.canvas_id, title: body.title },
      });
      return {
        template_id: id,
        title: body.title,
        description: body.description ?? `Saved from the canvas ${body.canvas_id}.`,
        kind: 'project',
      };
    },

    /** The layout a new canvas starts with, from a built-in template or one of the project's. */
    async layoutOf(projectId: string, templateId: string): Promise<Layout> {
      const builtin = builtinTemplate(templateId);
      if (builtin) return builtin.layout();
      const own = await store.templates.get(projectId, templateId);
      if (!own)
        throw new CanvasError(
          'not_found',
          `There is no template ${templateId} in this project: GET /api/v1/projects/${projectId}/templates lists them.`,
          { template_id: templateId },
        );
      return JSON.parse(own.layout) as Layout;
    },
  };
}

export type TemplateOperations = ReturnType<typeof createTemplateOperations>;
