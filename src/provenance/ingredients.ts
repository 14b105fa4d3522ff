import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { AssetRecord } from '../store/asset-records.js';
import type { IngredientInput } from './c2pa-signer.js';
import { ingredientDefinition, type IngredientFacts, type IngredientRelationship } from './manifests.js';

/**
 * The ingredients of a manifest: assets of this server a run or an export was made from. Each is named by its title
 * (the uploaded file's name, else its asset id), type, asset id and SHA-256; its bytes go along when asked for and at
 * most INGREDIENT_BYTES_LIMIT, so that credentials it already carries (an upload from a camera or another tool that
 * signs) are kept inside the new manifest.
 */

export const INGREDIENT_BYTES_LIMIT = 20 * 1024 * 1024;

export interface IngredientUse {
  assetId: string;
  relationship: IngredientRelationship;
}

export interface Ingredient {
  facts: IngredientFacts;
  input: IngredientInput;
}

interface AssetReads {
  getAsset(assetId: string): Promise<AssetRecord | null | undefined>;
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The project's assets among `uses` (the first use of each asset counts; another project's asset, or one this
 * process cannot reach, is left out), read from local copies that are removed before this returns.
 */
export async function gatherIngredients(options: {
  records: AssetReads;
  /** A local file with the asset's bytes (src/assets/assets.ts, `inputFile`), or null when out of reach. */
  inputFile(assetId: string): Promise<{ path: string; release(): Promise<void> } | null>;
  projectId: string;
  uses: readonly IngredientUse[];
  withBytes: boolean;
}): Promise<Ingredient[]> {
  const seen = new Set<string>();
  const gathered: Ingredient[] = [];
  for (const use of options.uses) {
    if (seen.has(use.assetId)) continue;
    seen.add(use.assetId);
    const record = await options.records.getAsset(use.assetId);
    if (!record || record.projectId !== options.projectId) continue;
    const file = await options.inputFile(use.assetId);
    if (!file) continue;
    try {
      const small = options.withBytes && record.byteSize <= INGREDIENT_BYTES_LIMIT;
      const bytes = small ? await readFile(file.path) : null;
      const facts: IngredientFacts = {
        assetId: record.assetId,
        title: record.fileName ?? record.assetId,
        mimeType: record.mimeType,
        sha256: bytes ? createHash('sha256').update(bytes).digest('hex') : await sha256OfFile(file.path),
        byteSize: record.byteSize,
        relationship: use.relationship,
        generated: record.runId !== null,
      };
      gathered.push({
        facts,
        input: {
          definition: ingredientDefinition(facts),
          ...(bytes ? { bytes: { mimeType: record.mimeType, data: bytes } } : {}),
        },
      });
    } finally {
      await file.release().catch(() => undefined);
    }
  }
  return gathered;
}
