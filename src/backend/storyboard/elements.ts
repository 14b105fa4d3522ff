import {
  type ElementCreateBody,
  type ElementList,
  type ElementUpdateBody,
  type ElementView,
} from '../../contract/index.js';
import type { AssetSigner } from '../../assets/url-signing.js';
import { CanvasError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { ElementNameTaken, type ElementFields, type StoredElement } from '../../store/element-store.js';
import type { Store } from '../../store/store.js';
import { authorizeProject } from '../auth/access.js';
import type { CallerContext } from '../auth/caller.js';

/**
 * A project's elements (docs/storyboards.md, "Elements"): members read them, editors keep them. A
 * reference picture is an image this project uploaded (POST …/uploads), named by its asset id; anything else is
 * refused naming the picture and why. Changes are in the project's audit log.
 */

export const ELEMENT_ID_PREFIX = 'el_';

export function createElementOperations(store: Store, signer: AssetSigner | undefined) {
  const sign = (assetId: string) => (signer ? signer.sign(assetId) : `/assets/${assetId}`);
  const listJsonCache = new WeakMap<readonly StoredElement[], { expiry: number; json: string }>();

  async function view(projectId: string, element: StoredElement): Promise<ElementView> {
    const references = [];
    for (const assetId of element.referenceAssets) {
      const asset = await store.assets.getAsset(assetId);
      // A picture removed since (an asset is never deleted today) is left out rather than shown broken.
      if (asset && asset.projectId === projectId)
        references.push({ asset_id: assetId, url: sign(assetId), mime_type: asset.mimeType });
    }
    return {
      element_id: element.id,
      kind: element.kind,
      name: element.name,
      notes: element.notes,
      references,
      created_at: new Date(element.createdAt).toISOString(),
      updated_at: new Date(element.updatedAt).toISOString(),
    };
  }

  async function checkedReferences(projectId: string, assetIds: readonly string[]): Promise<string[]> {
    const unique = [...new Set(assetIds)];
    for (const [index, assetId] of unique.entries()) {
      const asset = await store.assets.getAsset(assetId);
      if (!asset || asset.projectId !== projectId)
        throw new CanvasError(
          'invalid_arguments',
          `references.${index}: there is no picture ${assetId} in this project.`,
          {
            field: `references.${index}`,
          },
        );
      if (asset.kind !== 'image')
        throw new CanvasError(
          'invalid_arguments',
          `references.${index}: ${assetId} is ${asset.mimeType}; a reference must be a picture.`,
          { field: `references.${index}` },
        );
    }
    return unique;
  }

  /** Who made an element: the person, or the token that wrote without one. */
  const createdBy = (ctx: CallerContext) =>
    ctx.actor ??
    (ctx.principal.kind === 'session' ? ctx.principal.person : { issuer: 'token', subject: ctx.principal.tokenId });

  const taken = (name: string) =>
    new CanvasError('already_exists', `This project already has an element called ${name}; names are unique.`, {
      field: 'name',
    });

  async function audit(ctx: CallerContext, projectId: string, action: string, element: StoredElement) {
    if (!ctx.actor) return;
    await store.team.record({
      projectId,
      actor: ctx.actor,
      action,
      target: element.id,
      details: { name: element.name },
    });
  }

  async function existing(projectId: string, elementId: string): Promise<StoredElement> {
    const element = await store.elements.get(projectId, elementId);
    if (!element) throw new CanvasError('not_found', `There is no element ${elementId} in project ${projectId}.`);
    return element;
  }

  return {
    /** The project's elements as stored, for what runs are given (no signing, no access check: the caller did it). */
    stored: (projectId: string) => store.elements.list(projectId),

    async list(ctx: CallerContext, projectId: string): Promise<ElementList> {
      await authorizeProject(store, ctx, projectId, 'viewer');
      const elements = await store.elements.list(projectId);
      return { elements: await Promise.all(elements.map((element) => view(projectId, element))) };
    },

    /**
     * The project's elements as JSON for get_canvas (the caller's rights already checked), or null when it has none:
     * made once per stored list and signing window, not on every read.
     */
    async listJson(projectId: string): Promise<string | null> {
      const stored = await store.elements.list(projectId);
      if (stored.length === 0) return null;
      const expiry = signer?.expiry() ?? 0;
      const known = listJsonCache.get(stored);
      if (known?.expiry === expiry) return known.json;
      const json = JSON.stringify(await Promise.all(stored.map((element) => view(projectId, element))));
      listJsonCache.set(stored, { expiry, json });
      return json;
    },

    async create(ctx: CallerContext, projectId: string, body: ElementCreateBody): Promise<ElementView> {
      await authorizeProject(store, ctx, projectId, 'editor');
      const fields: ElementFields = {
        kind: body.kind,
        name: body.name,
        notes: body.notes ?? '',
        referenceAssets: await checkedReferences(projectId, body.references ?? []),
      };
      try {
        const created = await store.elements.create(projectId, newId(ELEMENT_ID_PREFIX), fields, createdBy(ctx));
        await audit(ctx, projectId, 'element.create', created);
        return view(projectId, created);
      } catch (error) {
        if (error instanceof ElementNameTaken) throw taken(body.name);
        throw error;
      }
    },

    async update(
      ctx: CallerContext,
      projectId: string,
      elementId: string,
      body: ElementUpdateBody,
    ): Promise<ElementView> {
      await authorizeProject(store, ctx, projectId, 'editor');
      const current = await existing(projectId, elementId);
      const fields: ElementFields = {
        kind: body.kind ?? current.kind,
        name: body.name ?? current.name,
        notes: body.notes ?? current.notes,
        referenceAssets: body.references
          ? await checkedReferences(projectId, body.references)
          : current.referenceAssets,
      };
      try {
        const updated = await store.elements.update(projectId, elementId, fields);
        if (!updated) throw new CanvasError('not_found', `There is no element ${elementId} in project ${projectId}.`);
        await audit(ctx, projectId, 'element.update', updated);
        return view(projectId, updated);
      } catch (error) {
        if (error instanceof ElementNameTaken) throw taken(fields.name);
        throw error;
      }
    },

    async remove(ctx: CallerContext, projectId: string, elementId: string): Promise<void> {
      await authorizeProject(store, ctx, projectId, 'editor');
      const current = await existing(projectId, elementId);
      await store.elements.remove(projectId, elementId);
      await audit(ctx, projectId, 'element.delete', current);
    },
  };
}

export type ElementOperations = ReturnType<typeof createElementOperations>;
